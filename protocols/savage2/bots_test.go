package savage2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the players byte counts clients; Savage 2 has no bots to tell
// apart, and the reply has no player list.
func TestBotsMeaning(t *testing.T) {
	r, err := decode(readVec(t, "full"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, r.Result(false), 7, prototest.Unknown, true)
}
