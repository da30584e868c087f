package frostbite

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game
// battlefield4: serverInfo, version, listPlayers all) and the Querier with
// players: name, map, counts and player names agree.
func TestGamedig(t *testing.T) {
	addr := rconServer(t, answering(t, vector(t, "ok_bf4")))
	gd, res := prototest.GamedigQuery(t, "battlefield4", nil, Protocol, protocols.Settings{Players: true}, addr)
	prototest.GamedigAgrees(t, gd, res)
}
