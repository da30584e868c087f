package mafia2mp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake servers with gamedig (npm, games m2m and
// m2o) and the Querier: name, counts, password and player names agree.
func TestGamedig(t *testing.T) {
	for _, tc := range []struct {
		game, tag, vec string
		s              protocols.Settings
	}{
		{"m2m", tagM2MP, "m2mp", protocols.Settings{Players: true}},
		{"m2o", tagOnline, "m2o", online(protocols.Settings{Players: true})},
	} {
		t.Run(tc.game, func(t *testing.T) {
			addr := server(t, tc.tag, prototest.VecFile(t, tc.vec))
			gd, res := prototest.GamedigQuery(t, tc.game, nil, Protocol, tc.s, addr)
			if gd.Name != res.Name || int64(gd.NumPlayers) != res.Players.Value || int64(gd.MaxPlayers) != res.MaxPlayers.Value || gd.Password != (res.Password == protocols.FlagTrue) {
				t.Errorf("querier %+v, gamedig %+v", res, gd)
			}
			if len(gd.Players) != len(res.PlayerList) {
				t.Fatalf("players %d, gamedig %d", len(res.PlayerList), len(gd.Players))
			}
			for i, p := range gd.Players {
				if p.Name != res.PlayerList[i].Name {
					t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
				}
			}
		})
	}
}
