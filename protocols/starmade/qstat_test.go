package starmade

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -starmade` and
// with the Querier and compares the name, players and max. qstat 2.17's JSON
// gives an empty name for a name that is not ASCII, so names are compared on
// the ASCII one.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, name := range []string{"status_default", "status_utf8"} {
		t.Run(name, func(t *testing.T) {
			addr := server(t, vec(t, name))
			qs := prototest.QstatJSON(t, "-starmade", addr)
			res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
			if qs.Status != "online" || name == "status_default" && qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %q %d/%d", qs, res.Name, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
