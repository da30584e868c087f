package nadeo

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: Nadeo servers have no bots; the player list counts everyone
// connected (spectators too, as qstat and gamedig count them). Players is the
// list's length, Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	res, _, err := probe(t, newFake(t, "forever").start(t), settings(t, true, ""), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
}
