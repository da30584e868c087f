package mumble

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the ping reply counts connected users and knows no bots.
func TestBotsMeaning(t *testing.T) {
	st, err := decode(prototest.HexFile(t, "reply_1_3_4.hex"), vecIdent)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, st.Result(false), int64(st.Users), prototest.Unknown, true)
}
