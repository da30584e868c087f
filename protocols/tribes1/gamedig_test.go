package tribes1

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake servers with gamedig (npm, games t1s and
// starsiege) and the Querier: name, map, counts and players agree, except that
// gamedig drops the Starsiege 2009 players it reads (it never adds them to its
// list) and decodes Latin-1 names as such.
func TestGamedig(t *testing.T) {
	for _, tc := range []struct {
		game, vec string
		starsiege bool
	}{{"t1s", "tribes", false}, {"starsiege", "starsiege", true}} {
		t.Run(tc.game, func(t *testing.T) {
			addr := server(t, prototest.VecFile(t, tc.vec))
			s := all
			if tc.starsiege {
				s = starsiege(all)
			}
			gd, res := prototest.GamedigQuery(t, tc.game, nil, Protocol, s, addr)
			if gd.Name != res.Name || gd.Map != res.Map || int64(gd.MaxPlayers) != res.MaxPlayers.Value || gd.Password != (res.Password == 2) {
				t.Errorf("querier %q %q /%d, gamedig %+v", res.Name, res.Map, res.MaxPlayers.Value, gd)
			}
			want := len(res.PlayerList)
			if tc.starsiege {
				want = 0
			}
			if len(gd.Players) != want {
				t.Errorf("gamedig lists %d players, want %d (ours %d)", len(gd.Players), want, len(res.PlayerList))
			}
			for i, p := range gd.Players {
				if !strings.EqualFold(p.Name, res.PlayerList[i].Name) {
					t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
				}
			}
		})
	}
}
