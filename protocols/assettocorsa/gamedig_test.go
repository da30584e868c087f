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
	gd, msg, ok := prototest.Gamedig(t, "assettocorsa", addr.Port(), nil)
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	res, _, err := query(t, addr, protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	prototest.GamedigAgrees(t, gd, res)
	if gd.Password != (res.Password == protocols.FlagTrue) {
		t.Errorf("password: querier %v, gamedig %v", res.Password, gd.Password)
	}
}
