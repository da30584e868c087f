package eldewrito

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake info servers with gamedig (npm, game
// eldewrito) and the Querier. An open server: name, map, max, version and player
// names agree (gamedig reports no player count of its own: its numplayers is
// the list's length). A passworded one: gamedig fails (it reads the players the
// server withholds), we report the server with a players phase error.
func TestGamedig(t *testing.T) {
	addr := fake(t, "")
	gd, res := prototest.GamedigQuery(t, "eldewrito", nil, Protocol, protocols.Settings{Players: true}, addr)
	if gd.Name != res.Name || gd.Map != res.Map || int64(gd.MaxPlayers) != res.MaxPlayers.Value || gd.Version != res.Version || len(gd.Players) != len(res.PlayerList) {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}

	locked := fake(t, testPassword)
	if _, msg, ok := prototest.Gamedig(t, "eldewrito", locked.Port(), nil); ok {
		t.Errorf("gamedig read a passworded server")
	} else {
		t.Logf("gamedig on a passworded server: %s", msg)
	}
	res, _, err := prototest.QueryOnce(t, newQuerier, locked, protocols.Settings{Players: true})
	if err != nil || res.Password != protocols.FlagTrue || len(res.PhaseErrors) != 1 {
		t.Errorf("querier on a passworded server: %v, %+v", err, res)
	}
}
