package doom3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: ET:QW flags each bot in its player records, so Players
// counts the humans and Bots the flagged records; Doom 3, Quake 4 and Prey
// have no flag: every record is a player and bots are unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector       string
		humans, bots int64
	}{
		{"etqw_info", 1, 1},
		{"etqw_infoex", 1, 1},
		{"etqw_tv", 0, 0},
		{"doom3_players", 3, prototest.Unknown},
		{"quake4_players", 2, prototest.Unknown},
		{"prey_players", 2, prototest.Unknown},
	} {
		t.Run(c.vector, func(t *testing.T) {
			rep, err := decode(vector(t, c.vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, rep.Result(true, false), c.humans, c.bots, true)
		})
	}
}
