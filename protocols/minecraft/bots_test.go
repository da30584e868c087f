package minecraft

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the status response counts online players and knows no
// bots.
func TestBotsMeaning(t *testing.T) {
	st, err := readResponse(bufio.NewReader(bytes.NewReader(statusFrame(statusJSON))))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, st.Result(true), 2, prototest.Unknown, true)
}
