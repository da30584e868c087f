package frostbite

import (
	"testing"

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
			prototest.QstatQuery(t, "-bfbc2", rconServer(t, answering(t, vector(t, name))), Protocol, protocols.Settings{})
		})
	}
}
