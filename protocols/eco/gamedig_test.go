package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

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
