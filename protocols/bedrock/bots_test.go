package bedrock

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the unconnected pong counts online players and knows no
// bots: Players is its count as sent, Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector string
		humans int64
	}{
		{"bds_full", 3},
		{"geyser", 0},
		{"six_fields", 2},
	} {
		t.Run(c.vector, func(t *testing.T) {
			p, err := decode(vec(t, c.vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, p.result(), c.humans, prototest.Unknown, true)
		})
	}
}
