package cube2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the info reply's client count leaves bots out (the server
// counts numclients(-1, false, true): spectators in, AI out), so it is the
// humans as sent; the bots are the extinfo records with client numbers from
// 128, known only when the module asks for the player list.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name         string
		players      bool
		humans, bots int64
	}{
		{"info and extinfo", true, 3, 1},
		{"info only", false, 3, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := query(t, protocols.Settings{Players: c.players}, 2*time.Second, full(t))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.humans, c.bots, true)
		})
	}
}
