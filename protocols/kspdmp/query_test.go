package kspdmp

import (
	"testing"

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
		NoBots:    true,
	})
}
