package assettocorsa

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game assettocorsa)
// and the Querier: name, track, counts, password, version and the connected
// drivers agree (the fake matches "/JSON|" literally, as gamedig sends it).
func TestGamedig(t *testing.T) {
	addr := fake(t, "info.json", "entry_list.json")
	gd, res := prototest.GamedigQuery(t, "assettocorsa", nil, Protocol, protocols.Settings{Players: true}, addr)
	prototest.GamedigAgrees(t, gd, res)
	if gd.Password != (res.Password == protocols.FlagTrue) {
		t.Errorf("password: querier %v, gamedig %v", res.Password, gd.Password)
	}
}
