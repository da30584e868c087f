package nadeo

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -tm` (one
// system.multicall: Authenticate as User/User, GetServerOptions,
// GetCurrentChallengeInfo, GetPlayerList) and with the Querier, and compares
// the name, map, players and max. Both strip the $ codes ($$ stays a $).
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	f := newFake(t, "forever")
	addr := f.start(t)
	qs := prototest.QstatJSON(t, "-tm", addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, prototest.Settings(false, ""), 2*time.Second)
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("qstat %+v, querier %q %q %d/%d", qs, res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value)
	}
}
