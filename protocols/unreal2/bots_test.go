package unreal2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: stock servers count and list their human players only
// (GetServerPlayers skips bots) and send no bot count: Players is the info's
// count as sent, Bots stays unknown and no listed player is marked.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int32
	}{
		{"three players", 3},
		{"empty", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{info: [][]byte{infoReply("Bots", "DM-Rankin", c.players, 16)}, players: playerReplies(int(c.players), 4)}
			res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, int64(c.players), prototest.Unknown, true)
		})
	}
}
