package teeworlds

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: 0.7 flags each listed bot (client flag 2), so Players
// counts the clients less the bots; 0.6 has no flag: every client counts and
// bots are unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector       string
		humans, bots int64
	}{
		{"v07_players.hex", 3, 1},
		{"v07_empty.hex", 0, 0},
		{"v06_players.hex", 3, prototest.Unknown},
	} {
		t.Run(c.vector, func(t *testing.T) {
			in, err := decodeVector(prototest.HexFile(t, c.vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, in.Result(true), c.humans, c.bots, true)
		})
	}
}

// TestBotsOverClients: more flagged bots than the client count leaves Players
// unknown rather than negative.
func TestBotsOverClients(t *testing.T) {
	in := info{Protocol: version07, NumClients: 1, Clients: []client{{Name: "a", Bot: true}, {Name: "b", Bot: true}}}
	prototest.CheckBots(t, in.Result(false), prototest.Unknown, 2, false)
}
