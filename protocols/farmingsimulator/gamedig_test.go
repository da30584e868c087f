package farmingsimulator

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake web interface with gamedig (npm, game
// farmingsimulator22, the code as its token) and the Querier: name, map,
// counts, version and the used slots' names agree.
func TestGamedig(t *testing.T) {
	addr := fake(t, "fs22.xml")
	gd, res := prototest.GamedigQuery(t, "farmingsimulator22", map[string]any{"token": testCode}, Protocol, protocols.Settings{Players: true, Options: withCode(testCode)}, addr)
	prototest.GamedigAgrees(t, gd, res)
}
