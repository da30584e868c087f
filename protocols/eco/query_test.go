package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// /info is asked first; OnlinePlayers counts the connected players.
func TestStatusPage(t *testing.T) {
	prototest.StatusPageSuite(t, prototest.StatusPage{
		Contract: prototest.Contract{
			Protocol: Protocol, Name: "eco", DefaultPort: 3000, PortOffset: 1, Transport: "tcp",
			Settings: protocols.Settings{Players: true},
		},
		Path: "/info", Good: "info.json", WantName: "Green Valley EU", WantPlayers: 3,
		Malformed: []string{"not_eco.json", "truncated.json"},
	})
}

// A server without /info answers /frontpage.
func TestQueryFrontpage(t *testing.T) {
	t.Parallel()
	res, _, err := prototest.QueryOnce(t, newQuerier, prototest.StatusPages(t, map[string]string{"/frontpage": "frontpage.json"}), protocols.Settings{})
	if err != nil || res.Name != "Capped" || res.MaxPlayers != protocols.Known(20) {
		t.Fatalf("%v, %+v", err, res)
	}
}

// TestGamedig queries the same fake web server with gamedig (npm, game eco, which
// reads /frontpage) and the Querier (/info): name, counts, password, version and
// names agree, except the maximum: gamedig reports TotalPlayers (everyone who
// ever joined), we the MaxActivePlayers cap.
func TestGamedig(t *testing.T) {
	addr := prototest.StatusPages(t, map[string]string{"/info": "frontpage_info.json", "/frontpage": "frontpage.json"})
	gd, res := prototest.GamedigQuery(t, "eco", nil, Protocol, protocols.Settings{Players: true}, addr)
	if gd.Name != res.Name || int64(gd.NumPlayers) != res.Players.Value || gd.Password != (res.Password == protocols.FlagTrue) || gd.Version != res.Version {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
	if gd.MaxPlayers != 4 || res.MaxPlayers != protocols.Known(20) {
		t.Errorf("max: gamedig %d (TotalPlayers 4), ours %+v (MaxActivePlayers 20)", gd.MaxPlayers, res.MaxPlayers)
	}
	if len(gd.Players) != len(res.PlayerList) || len(gd.Players) > 0 && gd.Players[0].Name != res.PlayerList[0].Name {
		t.Errorf("players %+v, gamedig %+v", res.PlayerList, gd.Players)
	}
}
