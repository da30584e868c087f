package kspdmp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake status page with gamedig (npm, game kspd)
// and the Querier: name and max agree. gamedig walks the players string as if it
// were a list of objects, one nameless player per character, then adds the
// split names: for "Jebediah, Valentina" it counts 19 + 2 = 21 players, where
// player_count (and ours) says 2.
func TestGamedig(t *testing.T) {
	addr := prototest.StatusPages(t, map[string]string{"/": "status.json"})
	res, _, err := prototest.QueryOnce(t, newQuerier, addr, protocols.Settings{Players: true})
	if err != nil || res.Players != protocols.Known(2) || len(res.PlayerList) != 2 {
		t.Fatalf("querier %v, %+v", err, res)
	}
	gd, msg, ok := prototest.Gamedig(t, "kspd", addr.Port(), nil)
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	if gd.Name != res.Name || int64(gd.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
	if n := len("Jebediah, Valentina") + 2; gd.NumPlayers != n || len(gd.Players) != n {
		t.Errorf("gamedig counts %d players (%d listed), want its %d", gd.NumPlayers, len(gd.Players), n)
	}
}
