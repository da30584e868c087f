package armagetron

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the big server info counts network users (AI players hold
// no connection) and flags no bots.
func TestBotsMeaning(t *testing.T) {
	s, err := decodeReply(prototest.HexFile(t, "players_colours.hex"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, s.Result(true, false), int64(s.Players), prototest.Unknown, true)
}
