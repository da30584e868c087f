package quake3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries qstat's fake ioq3 server with gamedig (npm, protocol-quake3:
// getstatus) and the Querier with players: name, map, counts and player names
// agree, colour codes stripped alike.
func TestGamedig(t *testing.T) {
	addr := qstatServer(t, []string{`12 48 "^1Play^7er"`, `7 20 "Second"`})
	gd, res := prototest.GamedigQuery(t, "protocol-quake3", nil, Protocol, protocols.Settings{Players: true}, addr)
	prototest.GamedigAgrees(t, gd, res)
}
