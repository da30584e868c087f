package buildandshoot

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The status server answers /json only; its count is the listed players,
// spectators included.
func TestStatusPage(t *testing.T) {
	prototest.StatusPageSuite(t, prototest.StatusPage{
		Contract: prototest.Contract{
			Protocol: Protocol, Name: "buildandshoot", DefaultPort: 32887, PortOffset: -1, Transport: "tcp",
			Settings: protocols.Settings{Players: true},
		},
		Path: "/json", Good: "piqueserver.json", WantName: "Pique CTF", WantPlayers: 3,
		Malformed: []string{"not_bns.json", "truncated.json"},
	})
}

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
