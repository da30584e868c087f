package buildandshoot

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake status servers with gamedig (npm, game bas)
// and the Querier, in both player layouts: name, map, version, counts and names
// agree.
func TestGamedig(t *testing.T) {
	for _, file := range []string{"piqueserver.json", "pyspades.json"} {
		t.Run(file, func(t *testing.T) {
			addr := prototest.StatusPages(t, map[string]string{"/json": file})
			gd, msg, ok := prototest.Gamedig(t, "bas", addr.Port(), nil)
			if !ok {
				t.Fatalf("gamedig failed: %s", msg)
			}
			res, _, err := prototest.QueryOnce(t, newQuerier, addr, protocols.Settings{Players: true})
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
		})
	}
}
