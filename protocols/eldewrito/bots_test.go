package eldewrito

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: numPlayers counts the players in the session; Halo Online has
// no bots and the list marks none.
func TestBotsMeaning(t *testing.T) {
	res, _, err := query(t, fake(t, ""), protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
