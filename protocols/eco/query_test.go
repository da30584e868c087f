package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// /info is asked first; OnlinePlayers counts the connected players.
func TestStatusPage(t *testing.T) {
	prototest.StatusPageSuite(t, prototest.StatusPage{
		Contract: prototest.Contract{
			Protocol: Protocol, Name: "eco", DefaultPort: 3000, PortOffset: 1, Transport: "tcp",
			Settings: protocols.Settings{Players: true},
		},
		Path: "/info", Good: "info.json", WantName: "Green Valley EU", WantPlayers: 3,
		Malformed: []string{"not_eco.json", "truncated.json"},
		NoBots:    true,
	})
}

// A server without /info answers /frontpage.
func TestQueryFrontpage(t *testing.T) {
	t.Parallel()
	res, _, err := prototest.QueryOnce(t, newQuerier, prototest.StatusPages(t, map[string]string{"/frontpage": "frontpage.json"}), protocols.Settings{})
	if err != nil || res.Name != "Capped" || res.MaxPlayers != protocols.Known(20) {
		t.Fatalf("%v, %+v", err, res)
	}
}
