package gamespy2

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vector reads testdata/<name>.bin, or <name>.info.bin then <name>.players.bin.
func vector(t testing.TB, name string) [][]byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return [][]byte{b}
	}
	var out [][]byte
	for _, part := range []string{"info", "players"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+"."+part+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

type wantPlayer struct {
	name  string
	score protocols.Count
	ping  protocols.Count
	team  string
}

func pl(name string, score, ping int64, team string) wantPlayer {
	return wantPlayer{name, protocols.Known(score), protocols.Known(ping), team}
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
	}{
		{
			name: "halo_like", host: "Test «Halo»", mapName: "bloodgulch", game: "CTF", version: "01.00.10.0621",
			players: protocols.Known(3), max: protocols.Known(16), password: protocols.FlagTrue,
			// team_ is 0-based into the team table; " :00" (Oddball time) is no score.
			list: []wantPlayer{pl("Alpha", 5, 40, "Red"), pl("Béta", -1, 120, "Blue"), {"Gamma", none, protocols.Known(60), "Blue"}},
		},
		{
			name: "aa_no_count", host: "RedServer", mapName: "Bridge", game: "armygame", version: "2.5",
			players: protocols.Known(2), max: protocols.Known(26),
			list: []wantPlayer{{"Sniper", protocols.Known(10), protocols.Known(55), ""}, {"Medic", protocols.Known(0), protocols.Known(70), ""}},
		},
		{
			name: "empty_tables", host: "Empty", game: "armedass", players: protocols.Known(0), max: protocols.Known(20),
			password: protocols.FlagFalse, list: []wantPlayer{},
		},
		{
			name: "all_in_one", host: "All", mapName: "m", players: protocols.Known(1), max: protocols.Known(8),
			// team_ 1 is past the one-row team table: kept as sent.
			list: []wantPlayer{pl("Solo", 3, 33, "1")},
		},
		{
			name: "bfv_teams", host: "BFV", game: "bfvietnam", players: protocols.Known(2), max: protocols.Known(64),
			list: []wantPlayer{pl("Nguyen", 4, 90, "NVA"), pl("Smith", 2, 80, "US")},
		},
		{
			name: "empty_name_counted", players: protocols.Known(2),
			list: []wantPlayer{{"One", protocols.Known(1), none, ""}, {"", protocols.Known(2), none, ""}},
		},
		{
			name: "cut_row", err: wire.ErrTruncated, players: protocols.Known(2),
			list: []wantPlayer{pl("A", 1, 10, ""), pl("B", 2, 20, "")},
		},
		{
			name: "lying_count", err: wire.ErrTruncated, host: "Liar",
			list: []wantPlayer{{"A", protocols.Known(1), none, ""}, {"B", protocols.Known(2), none, ""}},
		},
		{
			name: "cut_kv", err: wire.ErrTruncated, host: "Cut", mapName: "dm1", players: protocols.Known(4),
		},
		{name: "header_only", err: wire.ErrTruncated},
		{name: "bad_type", err: wire.ErrMalformed, noResult: true},
		{name: "too_many_columns", err: wire.ErrTooLarge, noResult: true},
		{name: "too_many_rows", err: wire.ErrTooLarge, noResult: true},
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
				Players: tc.players, Max: tc.max, Password: tc.password, Info: nil})
			if len(res.PlayerList) != len(tc.list) {
				t.Fatalf("%d players, want %d: %+v", len(res.PlayerList), len(tc.list), res.PlayerList)
			}
			for i, w := range tc.list {
				g := res.PlayerList[i]
				if g.Name != w.name || g.Score != w.score || g.Ping != w.ping || g.Team != w.team {
					t.Errorf("player %d = %q %v %v %q, want %q %v %v %q", i, g.Name, g.Score, g.Ping, g.Team, w.name, w.score, w.ping, w.team)
				}
			}
		})
	}
}

func TestDecodeReplyShort(t *testing.T) {
	for _, b := range []string{"", "\x00", "\x00COR"} {
		if _, err := decodeReply([]byte(b)); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// TestDecodeFixtures decodes every real capture (the info reply and the player/team
// reply of each server) and asserts GameQ's decoded values.
func TestDecodeFixtures(t *testing.T) {
	for _, g := range gamespytest.GameQs(t, "gamespy2") {
		t.Run(g.Name, func(t *testing.T) {
			parts, want := g.Parts, g.Want
			res, err := decode(parts...)
			if err != nil {
				t.Fatal(err)
			}
			checkFixture(t, res, want)
		})
	}
}

func checkFixture(t *testing.T, res *protocols.Result, want map[string]any) {
	t.Helper()
	game := gamespytest.Str(want, "gamename")
	if game == "" {
		game = gamespytest.Str(want, "gametype")
	}
	if res.Name != gamespytest.Str(want, "hostname") || res.Map != gamespytest.Str(want, "mapname") || res.Version != gamespytest.Str(want, "gamever") || res.Game != game {
		t.Errorf("name/map/version/game %q %q %q %q, want %q %q %q %q", res.Name, res.Map, res.Version, res.Game,
			gamespytest.Str(want, "hostname"), gamespytest.Str(want, "mapname"), gamespytest.Str(want, "gamever"), game)
	}
	if res.Players != gamespytest.Count(gamespytest.Str(want, "numplayers")) || res.MaxPlayers != gamespytest.Count(gamespytest.Str(want, "maxplayers")) {
		t.Errorf("players %v/%v, want %s/%s", res.Players, res.MaxPlayers, gamespytest.Str(want, "numplayers"), gamespytest.Str(want, "maxplayers"))
	}
	if w := map[string]protocols.Flag{"0": protocols.FlagFalse, "1": protocols.FlagTrue}[gamespytest.Str(want, "password")]; res.Password != w {
		t.Errorf("password %v, want %v", res.Password, w)
	}
	// Every K/V pair GameQ reports is in Info with the same value (GameQ reads
	// Latin-1, we Windows-1252: see gameq).
	for k, v := range want {
		s, ok := v.(string)
		if !ok || strings.HasPrefix(k, "gq_") {
			continue
		}
		s = gameq(s)
		if got, ok := gamespytest.Info(res, k); !ok || got != s {
			t.Errorf("info %s = %q (%v), want %q", k, got, ok, s)
		}
	}
	players, _ := want["players"].([]any)
	if len(res.PlayerList) != len(players) {
		t.Fatalf("%d players, want %d", len(res.PlayerList), len(players))
	}
	var teams []string
	if ts, ok := want["teams"].([]any); ok {
		for _, tm := range ts {
			teams = append(teams, gamespytest.Str(tm.(map[string]any), "teamt"))
		}
	}
	for i, p := range players {
		w := p.(map[string]any)
		g := res.PlayerList[i]
		if g.Name != gameq(gamespytest.Str(w, "player")) || g.Score != gamespytest.Count(gamespytest.Str(w, "score")) || g.Ping != gamespytest.Count(gamespytest.Str(w, "ping")) {
			t.Errorf("player %d = %q %v %v, want %q %q %q", i, g.Name, g.Score, g.Ping, gameq(gamespytest.Str(w, "player")), gamespytest.Str(w, "score"), gamespytest.Str(w, "ping"))
		}
		team := gamespytest.Str(w, "team")
		if n, err := strconv.Atoi(team); err == nil && n < len(teams) {
			team = teams[n] // 0-based into the team table
		}
		if g.Team != team {
			t.Errorf("player %d team %q, want %q", i, g.Team, team)
		}
	}
}

// gameq turns GameQ's reading of a string (its bytes as Latin-1) into ours: the
// servers are Windows games writing Windows-1252, whose 0x80-0x9F are marks
// (0x99 is ™), where Latin-1 has control characters.
func gameq(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return s // not a Latin-1 reading
		}
		b = append(b, byte(r))
	}
	return wire.Windows1252(b)
}

// TestDecodeWindows1252: Halo, SWAT 4 and Battlefield Vietnam are Windows games:
// a name that is not UTF-8 is Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	b := []byte{0, 'G', 'S', '2', 'X'}
	for _, s := range [][]byte{[]byte("hostname"), prototest.MafiaName, []byte("numplayers"), []byte("0"), []byte("maxplayers"), []byte("16"), nil} {
		b = append(append(b, s...), 0)
	}
	res, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != prototest.MafiaNameText {
		t.Errorf("name %q, want %q", res.Name, prototest.MafiaNameText)
	}
}
