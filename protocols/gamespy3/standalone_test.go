package gamespy3

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// vecParts reads testdata/<name>.vec, or its parts <name>.partN.vec in order.
func vecParts(t testing.TB, name string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", name+".part*.vec"))
	if len(files) == 0 {
		return [][]byte{prototest.VecFile(t, name)}
	}
	var out [][]byte
	for _, f := range files {
		out = append(out, prototest.VecFile(t, strings.TrimSuffix(filepath.Base(f), ".vec")))
	}
	return out
}

// TestDecodeStandalone covers, with annotated vectors written from the spec, the
// decoder paths that otherwise only the real captures of ../shared/fixtures reach,
// so that a clone without ../shared tests them too.
func TestDecodeStandalone(t *testing.T) {
	none := protocols.Count{}
	tests := []struct {
		name                string
		host, mapName, game string
		version             string
		players, max        protocols.Count
		password            protocols.Flag
		list                []wantPlayer
		info                map[string]string
	}{
		{
			// UT3 settings ids: p1073741825 is the map, p1073741826 the game; a
			// value starting with 'p' that is no id stays the value.
			name: "ut3_settings", host: "pwnage arena", mapName: "DM-ShangriLa", game: "UTGame.UTDeathmatch",
			players: protocols.Known(2), max: protocols.Known(16),
			list: []wantPlayer{{"Reaper", protocols.Known(21), none, "", false}, {"Othello", protocols.Known(9), none, "", false}},
			info: map[string]string{"p1073741827": "UT3 box on loopback", "s32779": "1", "hostport": "7777"},
		},
		{
			// A packet cut between a field name and its start byte: the next
			// packet's copy of the block fills the column.
			name: "split_cut_name", host: "BF2 Split", mapName: "Gulf of Oman", game: "battlefield2", version: "1.5.3153-802.0",
			players: protocols.Known(2), max: protocols.Known(32), password: protocols.FlagFalse,
			list: []wantPlayer{pl("Alpha", 15, 35, "MEC", false), pl("Bravo", 4, 70, "US", false)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts := vecParts(t, tc.name)
			res, err := decode(parts...)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			gamespytest.CheckHead(t, res, gamespytest.Head{Name: tc.host, Map: tc.mapName, Game: tc.game, Version: tc.version,
				Players: tc.players, Max: tc.max, Password: tc.password, Info: tc.info})
			if res.Bots.Known {
				t.Errorf("bots %v, want unknown", res.Bots)
			}
			if len(res.PlayerList) != len(tc.list) {
				t.Fatalf("%d players, want %d: %+v", len(res.PlayerList), len(tc.list), res.PlayerList)
			}
			for i, w := range tc.list {
				g := res.PlayerList[i]
				if g.Name != w.name || g.Score != w.score || g.Ping != w.ping || g.Team != w.team || g.Bot != w.bot {
					t.Errorf("player %d = %q %v %v %q %v, want %q %v %v %q %v", i, g.Name, g.Score, g.Ping, g.Team, g.Bot,
						w.name, w.score, w.ping, w.team, w.bot)
				}
			}
			// Arrival order does not matter.
			if len(parts) > 1 {
				rev := make([][]byte, 0, len(parts))
				for i := len(parts) - 1; i >= 0; i-- {
					rev = append(rev, parts[i])
				}
				got, err := decode(rev...)
				if err != nil || got.Name != res.Name || len(got.PlayerList) != len(res.PlayerList) || got.PlayerList[0] != res.PlayerList[0] {
					t.Errorf("reversed: %+v, %v", got, err)
				}
			}
		})
	}
}
