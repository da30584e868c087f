package frostbite

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -bfbc2` (which
// sends serverInfo with sequence 0, then quit) and with the Querier, and compares
// name, map, players and max. qstat reads the words of the first segment only,
// so the fake writes each packet at once.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, name := range []string{"ok_bf4", "ok_bf3", "ok_bc2", "ok_sqdm_four_teams"} {
		t.Run(name, func(t *testing.T) {
			addr := rconServer(t, answering(t, vector(t, name)))
			qs := prototest.QstatJSON(t, "-bfbc2", addr)
			res, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map ||
				int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %q %q %d/%d", qs, res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
