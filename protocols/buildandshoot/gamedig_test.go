package buildandshoot

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake status servers with gamedig (npm, game bas)
// and the Querier, in both player layouts: name, map, version, counts and names
// agree.
func TestGamedig(t *testing.T) {
	for _, file := range []string{"piqueserver.json", "pyspades.json"} {
		t.Run(file, func(t *testing.T) {
			addr := prototest.StatusPages(t, map[string]string{"/json": file})
			gd, res := prototest.GamedigQuery(t, "bas", nil, Protocol, protocols.Settings{Players: true}, addr)
			prototest.GamedigAgrees(t, gd, res)
		})
	}
}
