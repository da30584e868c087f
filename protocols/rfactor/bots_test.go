package rfactor

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the reply counts human players and AI drivers in two bytes:
// Players is the humans, Bots the AI. There is no player list.
func TestBotsMeaning(t *testing.T) {
	r, err := decode(readVec(t, "full"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, r.Result(), 5, 4, false)
}
