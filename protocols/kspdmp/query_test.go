package kspdmp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The status page is the server's root; player_count counts the connected
// players.
func TestStatusPage(t *testing.T) {
	prototest.StatusPageSuite(t, prototest.StatusPage{
		Contract: prototest.Contract{
			Protocol: Protocol, Name: "kspdmp", DefaultPort: 6702, PortOffset: 1, Transport: "tcp",
			Settings: protocols.Settings{Players: true},
		},
		Path: "/", Good: "status.json", WantName: "Kerbin Orbital Club", WantPlayers: 2,
		Malformed: []string{"not_dmp.json", "truncated.json"},
	})
}

// TestGamedig queries the same fake status page with gamedig (npm, game kspd)
// and the Querier: name and max agree. gamedig walks the players string as if it
// were a list of objects, one nameless player per character, then adds the
// split names: for "Jebediah, Valentina" it counts 19 + 2 = 21 players, where
// player_count (and ours) says 2.
func TestGamedig(t *testing.T) {
	addr := prototest.StatusPages(t, map[string]string{"/": "status.json"})
	res, _, err := prototest.QueryOnce(t, newQuerier, addr, protocols.Settings{Players: true})
	if err != nil || res.Players != protocols.Known(2) || len(res.PlayerList) != 2 {
		t.Fatalf("querier %v, %+v", err, res)
	}
	gd, msg, ok := prototest.Gamedig(t, "kspd", addr.Port(), nil)
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	if gd.Name != res.Name || int64(gd.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
	if n := len("Jebediah, Valentina") + 2; int(gd.NumPlayers) != n || len(gd.Players) != n {
		t.Errorf("gamedig counts %d players (%d listed), want its %d", gd.NumPlayers, len(gd.Players), n)
	}
}

// TestQstat queries the same fake status page with quakestat -ksp (which reads
// the object's fields from its one line) and with the Querier.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	addr := prototest.StatusPages(t, map[string]string{"/": "status.json"})
	qs := prototest.QstatJSON(t, "-ksp", addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %d/%d, qstat %+v", res.Name, res.Players.Value, res.MaxPlayers.Value, qs)
	}
}
