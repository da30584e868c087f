package assettocorsa

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game assettocorsa)
// and the Querier: name, track, counts, password, version and the connected
// drivers agree (the fake matches "/JSON|" literally, as gamedig sends it).
func TestGamedig(t *testing.T) {
	addr := fake(t, "info.json", "entry_list.json")
	gd, msg, ok := prototest.Gamedig(t, "assettocorsa", addr.Port(), nil)
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	res, _, err := query(t, addr, protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	if gd.Name != res.Name || gd.Map != res.Map || gd.Version != res.Version || gd.Password != (res.Password == protocols.FlagTrue) ||
		int64(gd.NumPlayers) != res.Players.Value || int64(gd.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
	if len(gd.Players) != len(res.PlayerList) {
		t.Fatalf("players %+v, gamedig %+v", res.PlayerList, gd.Players)
	}
	for i, p := range gd.Players {
		if p.Name != res.PlayerList[i].Name {
			t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
		}
	}
}
