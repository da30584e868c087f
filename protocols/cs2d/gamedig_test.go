package cs2d

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game c2d) and the
// Querier: map, counts, password and the player list agree. gamedig's numplayers
// is the players byte (bots included), ours the humans: ours plus bots is
// compared. gamedig keeps the ©RRRGGGBBB colour codes and reads the Latin-1 © as
// a replacement character: its names end with ours.
func TestGamedig(t *testing.T) {
	addr := prototest.Answering(t, request, prototest.VecFile(t, "full"))
	gd, res := prototest.GamedigQuery(t, "c2d", nil, Protocol, all, addr)
	if !strings.HasSuffix(gd.Name, res.Name) || gd.Map != res.Map || int64(gd.NumPlayers) != res.Players.Value+res.Bots.Value ||
		int64(gd.MaxPlayers) != res.MaxPlayers.Value || gd.Password != (res.Password == protocols.FlagTrue) {
		t.Errorf("querier %q %q %d+%d/%d, gamedig %+v", res.Name, res.Map, res.Players.Value, res.Bots.Value, res.MaxPlayers.Value, gd)
	}
	if len(gd.Players) != len(res.PlayerList) {
		t.Fatalf("players %d, gamedig %d", len(res.PlayerList), len(gd.Players))
	}
	for i, p := range gd.Players {
		if !strings.HasSuffix(p.Name, res.PlayerList[i].Name) {
			t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
		}
	}
}
