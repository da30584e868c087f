package gamespy2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: GameSpy 2 replies carry no bot count or flag: Players is
// numplayers as sent (else the rows: aa_no_count), Bots stays unknown and no
// row is marked.
func TestBotsMeaning(t *testing.T) {
	for name, humans := range map[string]int64{"halo_like": 3, "aa_no_count": 2, "bfv_teams": 2, "empty_tables": 0} {
		t.Run(name, func(t *testing.T) {
			res, err := decode(vector(t, name)...)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, humans, prototest.Unknown, true)
		})
	}
}
