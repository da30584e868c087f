package rfactor

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game rfactor) and
// the Querier: name, track, counts, password and version agree.
func TestGamedig(t *testing.T) {
	addr := prototest.Answering(t, request, prototest.VecFile(t, "full"))
	gd, res := prototest.GamedigQuery(t, "rfactor", nil, Protocol, protocols.Settings{}, addr)
	if gd.Name != res.Name || gd.Map != res.Map || int64(gd.NumPlayers) != res.Players.Value || int64(gd.MaxPlayers) != res.MaxPlayers.Value ||
		gd.Password != (res.Password == protocols.FlagTrue) || gd.Version != res.Version {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
}
