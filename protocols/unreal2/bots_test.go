package unreal2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the info's current players count bots too (UT2004's
// DeathMatch.GetNumPlayers: humans plus bots, capped at max-1, once a human is
// on), while the player list holds humans only (GetServerPlayers skips bots). With
// the list asked for, Players is its length and Bots the count less it; without,
// Players is the count as sent (bots included) and Bots stays unknown. No listed
// player is marked, as the list has no bot in it.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name               string
		counted, listed    int
		players            bool
		wantHuman, wantBot int64
	}{
		{"humans only", 3, 3, true, 3, 0},
		{"two humans, five bots", 7, 2, true, 2, 5},
		{"bots counted, list not asked", 7, 0, false, 7, prototest.Unknown},
		// No human on: the server counts nobody, bots or not.
		{"empty", 0, 0, true, 0, prototest.Unknown},
		// A list longer than the count cannot be split.
		{"list longer than the count", 2, 4, true, 4, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{info: [][]byte{infoReply("Bots", "DM-Rankin", int32(c.counted), 16)}, players: playerReplies(c.listed, 4)}
			res, _, err := query(t, f.start(t), protocols.Settings{Players: c.players}, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.wantHuman, c.wantBot, false)
			if c.players && len(res.PlayerList) != c.listed {
				t.Errorf("%d players listed, want %d", len(res.PlayerList), c.listed)
			}
		})
	}
}
