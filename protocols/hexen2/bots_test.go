package hexen2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the server info counts active clients; Hexen II has no bots
// to tell apart (stock servers run none), so bots stay unknown.
func TestBotsMeaning(t *testing.T) {
	body, _, err := answer(readVec(t, "info"), repServerInfo)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeServerInfo(body)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, s.result(), 2, prototest.Unknown, true)
}
