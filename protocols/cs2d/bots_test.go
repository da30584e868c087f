package cs2d

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the players byte counts bots too (they take slots) and the
// bots byte says how many; the list carries no bot mark, so it is not checked.
// A bots byte above the players byte leaves the total as sent and bots unknown.
func TestBotsMeaning(t *testing.T) {
	for vec, want := range map[string][2]int64{"full": {3, 2}, "nolist": {0, 0}, "lying_bots": {2, prototest.Unknown}} {
		r, err := decode(readVec(t, vec))
		if err != nil {
			t.Fatal(err)
		}
		prototest.CheckBots(t, r.Result(true, false), want[0], want[1], false)
	}
}
