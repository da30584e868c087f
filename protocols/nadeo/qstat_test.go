package nadeo

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -tm` (one
// system.multicall: Authenticate as User/User, GetServerOptions,
// GetCurrentChallengeInfo, GetPlayerList) and with the Querier, and compares
// the name, map, players and max. Both strip the $ codes ($$ stays a $).
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	prototest.QstatQuery(t, "-tm", newFake(t, "forever").start(t), Protocol, prototest.Settings(false, ""))
}
