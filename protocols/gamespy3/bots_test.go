package gamespy3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: Battlefield 2 flags bots in the player table's AIBot_
// column and counts them in numplayers, so Players counts the humans when the
// whole table came; other games (no column) and cut replies leave the bots
// unknown and numplayers as sent.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector       string
		humans, bots int64
		complete     bool
	}{
		{"split3", 2, 1, true},                          // numplayers 3, Charlie flagged
		{"missing_middle", 3, prototest.Unknown, false}, // the table is cut
		{"many_columns", 1, prototest.Unknown, true},    // no AIBot_ column
	} {
		t.Run(c.vector, func(t *testing.T) {
			res, _ := decode(vector(t, c.vector)...)
			if res == nil {
				t.Fatal("no result")
			}
			prototest.CheckBots(t, res, c.humans, c.bots, c.complete)
		})
	}
}
