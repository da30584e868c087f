package minecraft

import (
	"regexp"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake 1.7+ server with gamedig (npm, minecraft:
// the status handshake) and the Querier with players: name, version, counts and
// the sampled names agree, but for the one disagreement kept: gamedig leaves the
// sample's § formatting codes in the names, the Querier strips them as it does
// the MOTD's.
func TestGamedig(t *testing.T) {
	addr := slpServer(t, statusFrame(statusJSON), 0, true, nil)
	gd, res := prototest.GamedigQuery(t, "minecraft", nil, Protocol, protocols.Settings{Players: true}, addr)
	if len(gd.Players) == 0 || gd.Players[0].Name != "§bAlice" {
		t.Fatalf("gamedig's players %q, want the first with its code", gd.Players)
	}
	code := regexp.MustCompile("§.")
	for i := range gd.Players {
		gd.Players[i].Name = code.ReplaceAllString(gd.Players[i].Name, "")
	}
	prototest.GamedigAgrees(t, gd, res)
}
