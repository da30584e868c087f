package gamespy1

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// readParts reads dir/<name>.1.bin, .2.bin, ... (arrival order).
func readParts(t testing.TB, dir, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for i := 1; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, name+"."+strconv.Itoa(i)+".bin"))
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		t.Fatalf("no datagrams for %s in %s", name, dir)
	}
	return out
}

type wantPlayer struct {
	name        string
	score, ping int64
	scoreKnown  bool
	team        string
}

func p(name string, score, ping int64, team string) wantPlayer {
	return wantPlayer{name: name, score: score, ping: ping, scoreKnown: true, team: team}
}

// TestDecodeVectors runs the hand-built vectors of testdata/, written from the spec.
func TestDecodeVectors(t *testing.T) {
	tests := []struct {
		name          string
		err           error // sentinel the error must wrap, nil for none
		noResult      bool
		host, mapName string
		game, version string
		players, max  protocols.Count
		password      protocols.Flag
		list          []wantPlayer
		info          map[string]string // must be in Info
		notInfo       []string          // must not be in Info
	}{
		{
			name: "ut_shuffled", host: "Test «Server»", mapName: "DM-Deck16][", game: "ut", version: "451",
			players: protocols.Known(3), max: protocols.Known(16), password: protocols.FlagFalse,
			list:    []wantPlayer{p("Alpha", 12, 40, "0"), p("Beta", -3, 120, "1"), p("Zoé", 7, 99, "255")},
			info:    map[string]string{"AdminName": "Adm", "gametype": "DeathMatchPlus"},
			notInfo: []string{"queryid", "final", "keyhash_0", "player_0"},
		},
		{
			name: "bf_final_first", host: "BF Test", mapName: "berlin", game: "bfield1942", version: "v1.61",
			players: protocols.Known(2), max: protocols.Known(32), password: protocols.FlagTrue,
			// score_N is the score; team_N 1 is teamname_0; "Gone" is a stale third entry.
			list:    []wantPlayer{p("Axe", 7, 50, "axis"), p("Bow", 3, 60, "allied")},
			info:    map[string]string{"active_mods": "xpack1"},
			notInfo: []string{"teamname_0"},
		},
		{
			name: "mohaa_colour", host: "Red Server", mapName: "dm/mohdm7", game: "mohaa", version: "1.11",
			players: protocols.Known(1), max: protocols.Known(32),
			list: []wantPlayer{p("HotShot", 4, 98, "")},
			info: map[string]string{"hostname": "^3Red ^7Server"},
		},
		{
			name: "final_only_packet", host: "Solo", mapName: "m1",
			players: protocols.Known(0), max: protocols.Known(8), list: []wantPlayer{},
		},
		{
			name: "duplicate", host: "Dup", players: protocols.Known(1), max: protocols.Known(4),
			list: []wantPlayer{{name: "One", score: 1, scoreKnown: true}},
		},
		{
			name: "missing_middle", err: wire.ErrTruncated, host: "Lossy", mapName: "CTF-Face",
			players: protocols.Known(2), max: protocols.Known(10),
			list: []wantPlayer{{name: "First", score: 1, scoreKnown: true}, {name: "Third", score: 3, scoreKnown: true}},
		},
		{
			name: "info_no_queryid", host: "Plain", mapName: "DM-Morpheus", game: "DeathMatchPlus",
			players: protocols.Known(0), max: protocols.Known(8), list: []wantPlayer{},
			info: map[string]string{"gamemode": "openplaying", "hostport": "7777"},
		},
		{
			name: "players_only",
			list: []wantPlayer{p("a", 1, 10, "0"), p("b", 2, 20, "1")},
		},
		{
			name: "backslash_name", players: protocols.Known(3),
			list: []wantPlayer{{name: `a\b`, score: 5, scoreKnown: true}, {name: "c", score: 2, scoreKnown: true}, {name: `x\y\z`}},
		},
		{
			name: "garbled_key", host: "Garbled", mapName: "m", list: []wantPlayer{},
			notInfo: []string{"numplayers", "bad key"},
		},
		{
			name: "no_final", host: "NoFinal", players: protocols.Known(1), max: protocols.Known(2),
			list: []wantPlayer{{name: "Only", score: 9, scoreKnown: true}},
		},
		{name: "queryid_over_cap", err: wire.ErrTooLarge, noResult: true},
		{name: "after_final", err: wire.ErrMalformed, noResult: true},
		{name: "final_too_early", err: wire.ErrMalformed, noResult: true},
		{
			name: "strays", host: "Mine", mapName: "Mine-Map", players: protocols.Known(0), max: protocols.Known(6),
			list: []wantPlayer{},
		},
		{
			name: "lying_numbers", host: "Numbers", max: protocols.Known(16),
			list: []wantPlayer{{name: "p"}},
			info: map[string]string{"password": "maybe"},
		},
		{
			name: "odd_and_teams", host: "Café 日本", players: protocols.Known(0), list: []wantPlayer{},
			info:    map[string]string{"password": ""},
			notInfo: []string{"team_t0", "score_t0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := decode(readParts(t, "testdata", tc.name))
			prototest.WantedError(t, err, tc.err)
			if tc.noResult {
				if res != nil {
					t.Fatalf("result %+v with error %v", res, err)
				}
				return
			}
			gamespytest.CheckHead(t, res, gamespytest.Head{Name: tc.host, Map: tc.mapName, Game: tc.game, Version: tc.version,
				Players: tc.players, Max: tc.max, Password: tc.password, Info: tc.info})
			if res.Bots.Known {
				t.Errorf("bots reported: %v", res.Bots)
			}
			checkPlayers(t, res.PlayerList, tc.list)
			for _, k := range tc.notInfo {
				if _, ok := gamespytest.Info(res, k); ok {
					t.Errorf("info has %s", k)
				}
			}
		})
	}
}

func checkPlayers(t *testing.T, got []protocols.Player, want []wantPlayer) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d players, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Score.Known != w.scoreKnown || g.Score.Value != w.score || g.Team != w.team {
			t.Errorf("player %d = %q score %v team %q, want %q %d/%v %q", i, g.Name, g.Score, g.Team, w.name, w.score, w.scoreKnown, w.team)
		}
		if w.ping != 0 && (!g.Ping.Known || g.Ping.Value != w.ping) {
			t.Errorf("player %d ping %v, want %d", i, g.Ping, w.ping)
		}
	}
}

// The order datagrams arrive in never matters.
func TestDecodeAnyOrder(t *testing.T) {
	parts := readParts(t, "testdata", "ut_shuffled")
	want, err := decode(parts)
	if err != nil {
		t.Fatal(err)
	}
	orders := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 1, 0}, {2, 0, 1}}
	for _, o := range orders {
		got, err := decode([][]byte{parts[o[0]], parts[o[1]], parts[o[2]], parts[o[0]]})
		if err != nil {
			t.Fatalf("order %v: %v", o, err)
		}
		if got.Name != want.Name || len(got.PlayerList) != len(want.PlayerList) || len(got.Info) != len(want.Info) {
			t.Errorf("order %v: %+v, want %+v", o, got, want)
		}
	}
}

func TestDecodeCaps(t *testing.T) {
	var stream [][]byte
	for i := 1; i <= maxPackets; i++ {
		stream = append(stream, []byte(`\k`+strconv.Itoa(i)+`\v\queryid\1.`+strconv.Itoa(i)))
	}
	// 32 packets without \final\ are complete as far as anyone can tell; packet 33
	// is over the cap.
	if _, err := decode(stream); err != nil {
		t.Fatalf("32 packets: %v", err)
	}
	stream = append(stream, []byte(`\k\v\queryid\1.33`))
	if _, err := decode(stream); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("33 packets: %v", err)
	}
	// An endless stream of duplicates stops at the datagram cap.
	dups := make([][]byte, maxDatagrams+1)
	for i := range dups {
		dups[i] = []byte(`\hostname\x\queryid\1.1`)
	}
	if _, err := decode(dups); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("duplicates: %v", err)
	}
	// Bytes are capped too.
	big := [][]byte{[]byte(`\a\` + strings.Repeat("x", maxReply) + `\queryid\1.1`)}
	if _, err := decode(big); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("big: %v", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, b := range []string{"", "hostname\\x", "\xff\xff\xff\xff", `\queryid\`, `\queryid\1.x`, `\queryid\1.0`, `\queryid\.1`} {
		_, err := decode([][]byte{[]byte(b)})
		if err == nil {
			t.Errorf("%q: no error", b)
			continue
		}
		if r := wire.Reason(err); r != "malformed" && r != "truncated" {
			t.Errorf("%q: reason %s (%v)", b, r, err)
		}
	}
}

// expected is the part of a GameQ .expected.json these tests assert.
var colour = regexp.MustCompile(`\^[0-9]`)

// TestDecodeFixtures decodes every real capture and asserts GameQ's decoded values.
func TestDecodeFixtures(t *testing.T) {
	for _, g := range gamespytest.GameQs(t, "gamespy1") {
		t.Run(g.Name, func(t *testing.T) {
			parts, want := g.Parts, g.Want
			res, err := decode(parts)
			if err != nil {
				t.Fatal(err)
			}
			checkFixture(t, res, want)
			// Reversed arrival order gives the same result.
			rev := slices.Clone(parts)
			slices.Reverse(rev)
			res2, err := decode(rev)
			if err != nil || res2.Name != res.Name || len(res2.PlayerList) != len(res.PlayerList) || len(res2.Info) != len(res.Info) {
				t.Errorf("reversed order: %v %+v", err, res2)
			}
		})
	}
}

func checkFixture(t *testing.T, res *protocols.Result, want map[string]any) {
	t.Helper()
	if w := colour.ReplaceAllString(gamespytest.Str(want, "hostname"), ""); res.Name != w {
		t.Errorf("name %q, want %q", res.Name, w)
	}
	if res.Map != gamespytest.Str(want, "mapname") || res.Version != gamespytest.Str(want, "gamever") || res.Game != gamespytest.Str(want, "gamename") {
		t.Errorf("map/version/game %q %q %q, want %q %q %q", res.Map, res.Version, res.Game,
			gamespytest.Str(want, "mapname"), gamespytest.Str(want, "gamever"), gamespytest.Str(want, "gamename"))
	}
	if res.Players != gamespytest.Count(gamespytest.Str(want, "numplayers")) || res.MaxPlayers != gamespytest.Count(gamespytest.Str(want, "maxplayers")) {
		t.Errorf("players %v/%v, want %s/%s", res.Players, res.MaxPlayers, gamespytest.Str(want, "numplayers"), gamespytest.Str(want, "maxplayers"))
	}
	wantPw := protocols.FlagUnknown
	switch gamespytest.Str(want, "password") {
	case "0", "False":
		wantPw = protocols.FlagFalse
	case "1", "True":
		wantPw = protocols.FlagTrue
	}
	if res.Password != wantPw {
		t.Errorf("password %v, want %v", res.Password, wantPw)
	}
	// Every wire key GameQ reports (strings; gq_* and its own fields aside) is in Info
	// with the same value, last occurrence winning.
	for k, v := range want {
		s, ok := v.(string)
		if !ok || strings.HasPrefix(k, "gq_") || k == "final" {
			continue
		}
		if got, ok := gamespytest.Info(res, k); !ok || got != s {
			t.Errorf("info %s = %q (%v), want %q", k, got, ok, s)
		}
	}
	checkFixturePlayers(t, res, want)
}

func checkFixturePlayers(t *testing.T, res *protocols.Result, want map[string]any) {
	t.Helper()
	players, _ := want["players"].([]any)
	var teams []string
	if ts, ok := want["teams"].([]any); ok {
		for _, tm := range ts {
			teams = append(teams, gamespytest.Str(tm.(map[string]any), "teamname"))
		}
	}
	// GameQ keeps BF1942's stale entries; the spec (§4 rule 4) truncates the list
	// to numplayers.
	n := len(players)
	if np := gamespytest.Count(gamespytest.Str(want, "numplayers")); np.Known && int(np.Value) < n {
		n = int(np.Value)
	}
	if len(res.PlayerList) != n {
		t.Fatalf("%d players, want %d", len(res.PlayerList), n)
	}
	for i := range n {
		w := players[i].(map[string]any)
		g := res.PlayerList[i]
		name := gamespytest.Str(w, "player")
		if name == "" {
			name = gamespytest.Str(w, "playername")
		}
		if wn := colour.ReplaceAllString(name, ""); g.Name != wn {
			t.Errorf("player %d name %q, want %q", i, g.Name, wn)
		}
		score := gamespytest.Str(w, "frags")
		if score == "" {
			score = gamespytest.Str(w, "score")
		}
		if g.Score != gamespytest.Count(score) || g.Ping != gamespytest.Count(gamespytest.Str(w, "ping")) {
			t.Errorf("player %d %q score/ping %v/%v, want %q/%q", i, g.Name, g.Score, g.Ping, score, gamespytest.Str(w, "ping"))
		}
		team := gamespytest.Str(w, "team")
		if idx, err := strconv.Atoi(team); err == nil && teams != nil && idx >= 1 && idx <= len(teams) {
			team = teams[idx-1] // BF1942: team_N is 1-based into teamname_N
		}
		if g.Team != team {
			t.Errorf("player %d team %q, want %q", i, g.Team, team)
		}
	}
}

// TestDecodeWindows1252: UT99 and BF1942 are Windows games: a name that is not
// UTF-8 is Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	d := []byte(`\hostname\` + string(prototest.MafiaName) + `\gamename\ut\numplayers\1\maxplayers\8` +
		`\player_0\` + string(prototest.Marks1252) + `\frags_0\3\ping_0\40\final\\queryid\1.1`)
	res, err := decode([][]byte{d})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != prototest.MafiaNameText || len(res.PlayerList) != 1 || res.PlayerList[0].Name != prototest.Marks1252Text {
		t.Errorf("name %q, players %+v", res.Name, res.PlayerList)
	}
}
