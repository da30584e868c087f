package steamtest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// BotsQuery checks a probe's counts, which come from the info reply, and its
// player list of n entries, none marked a bot: A2S_PLAYER's record has no bot
// flag, though the list holds the bots too.
func BotsQuery(t testing.TB, res *protocols.Result, humans, bots int64, n int) {
	t.Helper()
	prototest.CheckBots(t, res, humans, bots, false)
	if len(res.PlayerList) != n {
		t.Fatalf("player list %+v, want %d entries", res.PlayerList, n)
	}
	for _, p := range res.PlayerList {
		if p.Bot {
			t.Errorf("player %q marked as a bot: A2S_PLAYER cannot tell", p.Name)
		}
	}
}
