package mafia2mp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestBotsMeaning: the players count is the connected players; neither mod has
// bots to tell apart.
func TestBotsMeaning(t *testing.T) {
	r, err := decode(readVec(t, "m2mp"), tagM2MP, wire.UTF8)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, r.Result(true), 3, prototest.Unknown, true)
}
