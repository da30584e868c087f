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
	gd, msg, ok := prototest.Gamedig(t, "farmingsimulator22", addr.Port(), map[string]any{"token": testCode})
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	res, _, err := query(t, addr, protocols.Settings{Players: true, Options: withCode(testCode)})
	if err != nil {
		t.Fatal(err)
	}
	prototest.GamedigAgrees(t, gd, res)
}
