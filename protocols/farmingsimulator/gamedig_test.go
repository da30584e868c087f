package farmingsimulator

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake web interface with gamedig (npm, game
// farmingsimulator22, the code as its token) and the Querier: name, map,
// counts, version and the used slots' names agree.
func TestGamedig(t *testing.T) {
	addr := fake(t, "fs22.xml")
	gd, msg, ok := prototest.Gamedig(t, "farmingsimulator22", addr.Port(), map[string]any{"token": testCode})
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	res, _, err := query(t, addr, protocols.Settings{Players: true, Options: withCode(testCode)})
	if err != nil {
		t.Fatal(err)
	}
	if gd.Name != res.Name || gd.Map != res.Map || gd.Version != res.Version ||
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
