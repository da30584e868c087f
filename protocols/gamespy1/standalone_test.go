package gamespy1

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// hexParts reads the annotated datagrams testdata/<name>.1.hex, .2.hex, ...
func hexParts(t testing.TB, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for i := 1; ; i++ {
		file := name + "." + strconv.Itoa(i) + ".hex"
		if _, err := os.Stat(filepath.Join("testdata", file)); errors.Is(err, os.ErrNotExist) {
			break
		}
		out = append(out, prototest.HexFile(t, file))
	}
	if len(out) == 0 {
		t.Fatalf("no datagrams for %s", name)
	}
	return out
}

// TestDecodeStandalone covers, with vectors written from the spec, the decoder
// paths that otherwise only the real captures of ../shared/fixtures reach, so
// that a clone without ../shared tests them too.
func TestDecodeStandalone(t *testing.T) {
	tests := []struct {
		name          string
		err           error
		host, mapName string
		game, version string
		players, max  protocols.Count
		password      protocols.Flag
		list          []wantPlayer
		info          map[string]string
		notInfo       []string
	}{
		{
			// Rule keys that look almost like player fields stay rules.
			name: "bf1942_rule_keys", host: "BF Rules", mapName: "el_alamein", game: "bfield1942", version: "v1.61",
			players: protocols.Known(1), max: protocols.Known(32), password: protocols.FlagFalse,
			list: []wantPlayer{p("Sarge", 12, 48, "Allies")},
			info: map[string]string{
				"allied_team_ratio": "1", "auto_balance_teams": "on", "number_of_rounds": "3",
				"sv_punkbuster": "0", "hit_indicator": "1",
			},
			notInfo: []string{"playername_0", "teamname_0", "team_0", "final", "queryid"},
		},
		{
			// Only the data-free last packet arrived: an empty, truncated result.
			name: "final_packet_only", err: wire.ErrTruncated, list: []wantPlayer{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := decode(hexParts(t, tc.name))
			prototest.WantedError(t, err, tc.err)
			if res == nil {
				t.Fatalf("no result (error %v)", err)
			}
			gamespytest.CheckHead(t, res, gamespytest.Head{Name: tc.host, Map: tc.mapName, Game: tc.game, Version: tc.version,
				Players: tc.players, Max: tc.max, Password: tc.password, Info: tc.info})
			checkPlayers(t, res.PlayerList, tc.list)
			for _, k := range tc.notInfo {
				if _, ok := gamespytest.Info(res, k); ok {
					t.Errorf("info has %s", k)
				}
			}
			if tc.info == nil && len(res.Info) != 0 {
				t.Errorf("info %v, want none", res.Info)
			}
		})
	}
}
