package terraria

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: TShock's status counts connected players (playercount)
// and Terraria has no bot players: Players is the count as sent, Bots stays
// unknown and no listed player is marked.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		file   string
		humans int64
	}{
		{"status_players_rules.json", 3},
		{"status_minimal_password.json", 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			st, err := decode(prototest.JSONResponse(200, prototest.File(t, c.file)))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, st.result(true, false), c.humans, prototest.Unknown, true)
		})
	}
}
