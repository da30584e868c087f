package gamespy3

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vector reads testdata/<name>.bin, or its parts <name>.partN.bin in order.
func vector(t testing.TB, name string) [][]byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return [][]byte{b}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", name+".part*.bin"))
	if len(files) == 0 {
		t.Fatalf("no vector %s", name)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

type wantPlayer struct {
	name        string
	score, ping protocols.Count
	team        string
	bot         bool
}

func pl(name string, score, ping int64, team string, bot bool) wantPlayer {
	return wantPlayer{name, protocols.Known(score), protocols.Known(ping), team, bot}
}

// TestDecodeVectors runs the hand-built vectors of testdata/, written from the spec.
func TestDecodeVectors(t *testing.T) {
	none := protocols.Count{}
	tests := []struct {
		name                string
		err                 error
		noResult            bool
		host, mapName, game string
		version             string
		players, max        protocols.Count
		password            protocols.Flag
		list                []wantPlayer
		info                map[string]string
	}{
		{
			// K/V continued in packet 1; " Char" (truncated copy) repaired by packet 2;
			// Latin-1 name; teams 1-based into team_t; AIBot_.
			name: "split3", host: "Split «Test»", mapName: "Strike At Karkand", game: "battlefield2", version: "1.5.3153-802.0",
			// numplayers 3, one row flagged AIBot_: 2 humans.
			players: protocols.Known(2), max: protocols.Known(64), password: protocols.FlagTrue,
			list: []wantPlayer{pl("Alpha", 10, 40, "MEC", false), pl("[TAG] Béta", -2, 120, "US", false), pl("Charlie", 7, 60, "US", true)},
			info: map[string]string{"bf2_sponsortext": "a long sponsor text", "bf2_team2": "US"},
		},
		{
			name: "empty_sections", host: "Empty", mapName: "Mesa", game: "PowerStruggle", version: "1.1.1.6156",
			players: protocols.Known(0), max: protocols.Known(18), password: protocols.FlagFalse, list: []wantPlayer{},
		},
		{name: "empty_columns", host: "Nobody", players: protocols.Known(0), max: protocols.Known(16), list: []wantPlayer{}},
		{
			// Packed map, bare setting id before the value, extra NULs between blocks.
			name: "ut3_packed", host: "UT3 Box", mapName: "DM-Deck", players: protocols.Known(1), max: protocols.Known(12),
			list: []wantPlayer{{"Solo", protocols.Known(5), none, "", false}},
			info: map[string]string{"s32779": "\x1cMutA\x1cMutB", "p1073741827": ""},
		},
		{
			name: "no_numplayers", host: "Rows", players: protocols.Known(2), max: protocols.Known(8),
			list: []wantPlayer{{"a", none, none, "", false}, {"b", none, none, "", false}},
		},
		{name: "kv_cut", err: wire.ErrTruncated, host: "Cut", mapName: "dm1", players: protocols.Known(4), list: []wantPlayer{}},
		{
			// Packet 1 lost: its K/V pairs and player names are gone, packet 2's
			// columns still land on their rows.
			name: "missing_middle", err: wire.ErrTruncated, host: "Split «Test»", mapName: "Strike At Karkand", game: "battlefield2",
			version: "1.5.3153-802.0", players: protocols.Known(3), max: protocols.Known(64), password: protocols.FlagTrue,
			list: []wantPlayer{pl("", 10, 40, "MEC", false), pl("", -2, 120, "US", false), pl("Charlie", 7, 60, "US", true)},
		},
		{
			name: "lying_start", host: "Liar", players: protocols.Known(2),
			list: []wantPlayer{{"first", none, none, "", false}, {"", protocols.Known(0), none, "", false},
				{"", protocols.Known(1), none, "", false}, {"", protocols.Known(2), none, "", false},
				{"", protocols.Known(3), none, "", false}, {"", protocols.Known(4), none, "", false},
				{"", protocols.Known(5), none, "", false}},
		},
		{name: "many_columns", host: "Wide", players: protocols.Known(1), list: []wantPlayer{{}}},
		{name: "two_last", err: wire.ErrMalformed, noResult: true},
		{name: "bad_type", err: wire.ErrMalformed, noResult: true},
		{name: "short", err: wire.ErrTruncated, noResult: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := decode(vector(t, tc.name)...)
			prototest.WantedError(t, err, tc.err)
			if tc.noResult {
				if res != nil {
					t.Fatalf("result %+v", res)
				}
				return
			}
			gamespytest.CheckHead(t, res, gamespytest.Head{Name: tc.host, Map: tc.mapName, Game: tc.game, Version: tc.version,
				Players: tc.players, Max: tc.max, Password: tc.password, Info: tc.info})
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
		})
	}
}

// Packet order and duplicates do not matter.
func TestDecodeOrder(t *testing.T) {
	v := vector(t, "split3")
	want, err := decode(v...)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]int{{2, 1, 0}, {1, 2, 0, 1}, {0, 0, 2, 2, 1}} {
		var in [][]byte
		for _, i := range order {
			in = append(in, v[i])
		}
		got, err := decode(in...)
		if err != nil || got.Name != want.Name || len(got.PlayerList) != 3 || got.PlayerList[2] != want.PlayerList[2] {
			t.Errorf("order %v: %+v, %v", order, got, err)
		}
	}
}

func TestDecodeJC2MP(t *testing.T) {
	res, err := decodeJC2MP(vector(t, "jc2mp")[0])
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "JC2 Test" || res.Version != "913" || res.Players != protocols.Known(2) || res.MaxPlayers != protocols.Known(500) ||
		res.Password != protocols.FlagFalse {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 2 || res.PlayerList[1].Name != "κöρεcικ" || res.PlayerList[1].Ping != protocols.Known(300) {
		t.Errorf("players %+v", res.PlayerList)
	}
	res, err = decodeJC2MP(vector(t, "jc2mp_cut")[0])
	if !errors.Is(err, wire.ErrTruncated) || res == nil || len(res.PlayerList) != 1 || res.Name != "JC2 Test" {
		t.Errorf("cut: %+v, %v", res, err)
	}
	if res, err := decodeJC2MP(vector(t, "jc2mp_lying_count")[0]); !errors.Is(err, wire.ErrTooLarge) || res != nil {
		t.Errorf("lying count: %+v, %v", res, err)
	}
	if _, err := decodeJC2MP(vector(t, "short")[0]); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("short: %v", err)
	}
}

// TestDecodeWindows1252: Battlefield 2 and Crysis are Windows games: a name that
// is not UTF-8 is Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	d := vector(t, "empty_sections")[0]
	d = bytes.Replace(d, []byte("hostname\x00Empty\x00"), append(append([]byte("hostname\x00"), prototest.MafiaName...), 0), 1)
	res, err := decode(d)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != prototest.MafiaNameText {
		t.Errorf("name %q, want %q", res.Name, prototest.MafiaNameText)
	}
}
