package gamespy2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: GameSpy 2 replies carry no bot count or flag: Players is
// numplayers as sent (else the rows), Bots stays unknown and no row is marked.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector string
		humans int64
	}{
		{"halo_like", 3},
		{"aa_no_count", 2}, // no numplayers: the rows
		{"bfv_teams", 2},
		{"empty_tables", 0},
	} {
		t.Run(c.vector, func(t *testing.T) {
			res, err := decode(vector(t, c.vector)...)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.humans, prototest.Unknown, true)
		})
	}
}
