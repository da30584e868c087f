package doom3

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// unknown marks a count the decoder must leave unreported.
const unknown = -1

type wantPlayer struct {
	name  string // cleaned
	ping  int64
	score int64 // unknown when not reported
	team  string
	bot   bool
}

type vectorWant struct {
	err        error // sentinel of a fatal decode error
	playersErr error // sentinel of reply.PlayersErr
	pairs      int
	variant    variant
	layout     layout
	protocol   string
	challenge  uint32
	name, mapN string
	game, ver  string
	max        int64
	players    int64
	bots       int64
	password   protocols.Flag
	list       []wantPlayer
	info       map[string]string // debug keys in Result.Info
	trailing   string
}

var vectorWants = map[string]vectorWant{
	"doom3_players": {
		pairs: 7, variant: variantDoom3, layout: layoutDoom3, protocol: "1.41", challenge: 0x44332211,
		name: "Red Server", mapN: "game/mp/d3dm1", game: "baseDOOM-1", ver: "DOOM 1.3.1.1304 linux-x86",
		max: 8, players: 3, bots: unknown, password: protocols.FlagTrue,
		list: []wantPlayer{
			{name: "Alice", ping: 50, score: unknown},
			{name: "Bob^", ping: 100, score: unknown},
			{name: "Carl ^ ok", ping: 0, score: unknown},
		},
		info: map[string]string{"variant": "doom3", "os_mask": "0xffffffff", "player_layout": "doom3"},
	},
	"prey_players": {
		pairs: 6, variant: variantPrey, layout: layoutDoom3, protocol: "3.1", challenge: 0xefbeadde,
		name: "Prey Hunt", mapN: "game/dmshuttle", game: "base", ver: "PREY 1.4",
		max: 16, players: 2, bots: unknown, password: protocols.FlagFalse,
		list: []wantPlayer{{name: "Tommy", ping: 300, score: unknown}, {name: "", ping: 10, score: unknown}},
		info: map[string]string{"variant": "prey", "os_mask": "0x00000003"},
	},
	"quake4_players": {
		pairs: 7, variant: variantQuake4, layout: layoutQuake4, protocol: "2.85", challenge: 0x04030201,
		name: "Quad Arena", mapN: "mp/q4dm1", game: "Q4MP 1.4.2", ver: "Quake4  V1.4.2 linux-x86 Jun 15 2007",
		max: 12, players: 2, bots: unknown, password: protocols.FlagFalse,
		list:     []wantPlayer{{name: "Zoé", ping: 30, score: unknown}, {name: "Plain", ping: 40, score: unknown}},
		info:     map[string]string{"variant": "quake4", "os_mask": "0x00000007"},
		trailing: "2e6d000001",
	},
	"etqw_info": {
		pairs: 7, variant: variantETQW, layout: layoutETQW, protocol: "10.21", challenge: 0xd4c3b2a1,
		name: "The Base", mapN: "area22", game: "baseETQW-1", ver: "ETQW 1.5.12642.33243  win-x86 Apr 30 2008 14:18:50",
		max: 24, players: 1, bots: 1, password: protocols.FlagTrue, // players: humans
		list: []wantPlayer{{name: "BotOne", ping: 0, score: unknown, bot: true}, {name: "Ranger", ping: 60, score: unknown}},
		info: map[string]string{
			"variant": "etqw", "ranked": "true", "time_left_ms": "300000", "game_state": "2",
			"server_type": "0", "interested_clients": "3", "player_layout": "etqw",
		},
	},
	"etqw_infoex": {
		pairs: 5, variant: variantETQW, layout: layoutETQW, protocol: "10.21", challenge: 0xd4c3b2a1,
		name: "XP Server", mapN: "island", game: "bbamod",
		max: 32, players: 1, bots: 1, password: protocols.FlagFalse,
		list: []wantPlayer{
			{name: "Bot", ping: 0, score: 1235, team: "gdf", bot: true}, // XP 1234.5 rounds half away from zero
			{name: "Human", ping: 80, score: 10, team: "strogg"},
		},
		info: map[string]string{"ranked": "false", "server_type": "0"},
	},
	"etqw_tv": {
		pairs: 2, variant: variantETQW, layout: layoutETQW, protocol: "10.19",
		name: "TV", mapN: "salvage", max: unknown, players: 0, bots: 0,
		info: map[string]string{"server_type": "1", "tv_connected_clients": "100", "tv_max_clients": "512", "os_mask": "0x00000005"},
	},
	"unknown_major": {
		pairs: 1, variant: variantUnknown, layout: layoutQuake4, protocol: "7.0",
		name: "Mystery", max: unknown, players: 2, bots: unknown,
		list: []wantPlayer{{name: "A", ping: 10, score: unknown}, {name: "B", ping: 11, score: unknown}},
		info: map[string]string{"player_layout": "quake4", "variant": "unknown"},
	},
	"doom3_deleted_keys": {
		pairs: 1, variant: variantDoom3, layout: layoutDoom3, protocol: "1.41",
		name: "x", max: unknown, players: 0, bots: unknown,
	},
	"big_major_doom3": {
		pairs: 2, variant: variantDoom3, layout: layoutDoom3, protocol: "12.1",
		name: "Twelve", ver: "DOOM 9", max: unknown, players: 1, bots: unknown,
		list: []wantPlayer{{name: "A", ping: 10, score: unknown}},
	},
	"wolf_players": {
		pairs: 4, variant: variantWolf, layout: layoutWolf, protocol: "10.17", challenge: 0x0badf00d,
		name: "Wolf Server", mapN: "mp/bridge", max: 12, players: 1, bots: 1, password: protocols.FlagFalse,
		list: []wantPlayer{{name: "Blazko", ping: 45, score: unknown}, {name: "Bot Hans", ping: 0, score: unknown, bot: true}},
		info: map[string]string{"variant": "wolfenstein", "player_layout": "wolfenstein", "os_mask": "0x00000001"},
	},
	"wolf_hint_term32": {
		pairs: 2, variant: variantWolf, layout: layoutWolf, protocol: "1.1", challenge: 1,
		name: "Hinted", ver: "Wolfenstein 1.3 MP", max: unknown, players: 1, bots: 0,
		list: []wantPlayer{{name: "Agent", ping: 50, score: unknown}},
		info: map[string]string{"variant": "wolfenstein", "os_mask": "0x00000007"},
	},
	"etqw_trunc_header": {err: wire.ErrTruncated},
	"bad_marker":        {err: wire.ErrMalformed},
	"bad_name":          {err: wire.ErrMalformed},
	"trunc_header":      {err: wire.ErrTruncated},
	"trunc_dict":        {err: wire.ErrTruncated, pairs: 2},
	"empty":             {err: wire.ErrTruncated},
	"infoex_no_ext":     {playersErr: wire.ErrTruncated, pairs: 1, variant: variantETQW, layout: layoutETQW, protocol: "10.21", name: "NoExt", max: unknown, players: unknown, bots: unknown},
	"players_not_increasing": {
		playersErr: wire.ErrMalformed, pairs: 2, variant: variantDoom3, layout: layoutDoom3, protocol: "1.41",
		name: "Dup", max: 4, players: unknown, bots: unknown,
		list: []wantPlayer{{name: "a", ping: 16, score: unknown}}, // what was read before the bad id
	},
	"players_no_terminator": {
		playersErr: wire.ErrTruncated, pairs: 1, variant: variantDoom3, layout: layoutDoom3, protocol: "1.41",
		name: "Open", max: unknown, players: unknown, bots: unknown,
		list: []wantPlayer{{name: "a", ping: 16, score: unknown}},
	},
	"etqw_size_lie": {
		playersErr: wire.ErrTruncated, pairs: 1, variant: variantETQW, layout: layoutETQW, protocol: "10.21",
		name: "Short", max: unknown, players: unknown, bots: unknown,
	},
	"etqw_bad_bot": {
		playersErr: wire.ErrMalformed, pairs: 1, variant: variantETQW, layout: layoutETQW, protocol: "10.21",
		name: "Bits", max: unknown, players: unknown, bots: unknown,
	},
}

func TestDecodeVectors(t *testing.T) {
	names := vectorNames(t)
	if len(names) != len(vectorWants) {
		t.Errorf("%d vectors in testdata, %d expectations", len(names), len(vectorWants))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			w, ok := vectorWants[name]
			if !ok {
				t.Fatalf("no expectation for testdata/%s.hex", name)
			}
			rep, err := decode(vector(t, name))
			if w.err != nil {
				if !errors.Is(err, w.err) {
					t.Fatalf("err = %v, want %v", err, w.err)
				}
				if rep != nil && len(rep.Info) != w.pairs {
					t.Errorf("partial pairs = %d, want %d", len(rep.Info), w.pairs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkVector(t, rep, w)
		})
	}
}

func checkVector(t *testing.T, rep *reply, w vectorWant) {
	t.Helper()
	if !errors.Is(rep.PlayersErr, w.playersErr) || (w.playersErr == nil && rep.PlayersErr != nil) {
		t.Errorf("PlayersErr = %v, want %v", rep.PlayersErr, w.playersErr)
	}
	if len(rep.Info) != w.pairs {
		t.Errorf("pairs = %d, want %d", len(rep.Info), w.pairs)
	}
	if rep.Variant != w.variant || rep.Layout != w.layout {
		t.Errorf("variant/layout = %s/%s, want %s/%s", rep.Variant, rep.Layout, w.variant, w.layout)
	}
	if got := fmt.Sprintf("%d.%d", rep.Major(), rep.Minor()); got != w.protocol {
		t.Errorf("protocol = %s, want %s", got, w.protocol)
	}
	if rep.Challenge != w.challenge {
		t.Errorf("challenge = %08x, want %08x", rep.Challenge, w.challenge)
	}
	if got := hex.EncodeToString(rep.Trailing); got != w.trailing {
		t.Errorf("trailing = %s, want %s", got, w.trailing)
	}
	res := rep.Result(true, true)
	if res.Name != w.name || res.Map != w.mapN || res.Game != w.game || res.Version != w.ver {
		t.Errorf("name/map/game/version = %q/%q/%q/%q, want %q/%q/%q/%q", res.Name, res.Map, res.Game, res.Version, w.name, w.mapN, w.game, w.ver)
	}
	checkCount(t, "max", res.MaxPlayers, w.max)
	// ET:QW flags its bots: Players counts the humans; the others have no flag.
	prototest.CheckBots(t, res, w.players, w.bots, true)
	if res.Password != w.password {
		t.Errorf("password = %v, want %v", res.Password, w.password)
	}
	if len(res.Rules) != w.pairs {
		t.Errorf("rules = %d, want %d", len(res.Rules), w.pairs)
	}
	if (rep.PlayersErr != nil) != (len(res.PhaseErrors) == 1) {
		t.Errorf("phase errors %v for PlayersErr %v", res.PhaseErrors, rep.PlayersErr)
	}
	if len(res.PlayerList) != len(w.list) {
		t.Fatalf("player list = %+v, want %d players", res.PlayerList, len(w.list))
	}
	for i, p := range res.PlayerList {
		wp := w.list[i]
		if p.Name != wp.name || p.Ping != protocols.Known(wp.ping) || p.Team != wp.team || p.Bot != wp.bot {
			t.Errorf("player %d = %+v, want %+v", i, p, wp)
		}
		checkCount(t, fmt.Sprintf("player %d score", i), p.Score, wp.score)
	}
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	for k, v := range w.info {
		if info[k] != v {
			t.Errorf("Info[%s] = %q, want %q", k, info[k], v)
		}
	}
}

func checkCount(t *testing.T, what string, c protocols.Count, want int64) {
	t.Helper()
	if want == unknown {
		if c.Known {
			t.Errorf("%s = %d, want unreported", what, c.Value)
		}
		return
	}
	if c != protocols.Known(want) {
		t.Errorf("%s = %+v, want %d", what, c, want)
	}
}

func TestDecodeTooManyPairs(t *testing.T) {
	b := request("infoResponse", 0)
	b = append(b, 0x29, 0, 1, 0)
	for i := 0; i <= maxPairs; i++ {
		b = append(b, 'k', 0, 'v', 0)
	}
	b = append(b, 0, 0, 32)
	rep, err := decode(b)
	if !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("err = %v, want too large", err)
	}
	if len(rep.Info) != maxPairs {
		t.Errorf("kept %d pairs, want %d", len(rep.Info), maxPairs)
	}
}

func TestDecodeTooLarge(t *testing.T) {
	if _, err := decode(make([]byte, maxDatagram+1)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("err = %v, want too large", err)
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in, want string
		q4       bool
	}{
		{"^1Red ^7Server", "Red Server", false},
		{"a ^ b", "a ^ b", false}, // ^ before a space is literal
		{"end^", "end^", false},
		{"^^x", "x", false},
		{"^c014-^c345=^Iw05^7NUTS", "-=NUTS", true},
		{"^c014-", "014-", false}, // Doom 3 knows only two-character codes
		{"^ifve^3Ç^-a", "Ça", true},
		{"^c01", "01", true}, // too short for ^cRGB: a plain two-character code
		{"plain", "plain", true},
	} {
		if got := clean(c.in, c.q4); got != c.want {
			t.Errorf("Clean(%q, %v) = %q, want %q", c.in, c.q4, got, c.want)
		}
	}
}

// fixtureFile is one .expected.json (see shared/fixtures/PROVENANCE.md).
type fixtureFile struct {
	Fixture string         `json:"fixture"`
	Decoded map[string]any `json:"decoded"`
}

func num(v any) int64 { return int64(v.(float64)) }

func TestDecodeFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(prototest.FixtureDir(t, "doom3"), "*.expected.json"))
	if len(files) == 0 {
		t.Skip("no expected.json files")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".expected.json"), func(t *testing.T) {
			fx := prototest.ReadJSON[fixtureFile](t, f)
			rep, err := decode(prototest.Fixture(t, "doom3", fx.Fixture))
			if err != nil {
				t.Fatal(err)
			}
			checkFixture(t, rep, fx.Decoded)
		})
	}
}

func checkFixture(t *testing.T, rep *reply, d map[string]any) {
	if rep.PlayersErr != nil {
		t.Fatalf("PlayersErr: %v", rep.PlayersErr)
	}
	if rep.Response != d["response"] {
		t.Errorf("response = %q, want %q", rep.Response, d["response"])
	}
	wantVariant, _, _ := strings.Cut(d["variant"].(string), "_") // etqw_info, etqw_infoex -> etqw
	if string(rep.Variant) != wantVariant {
		t.Errorf("variant = %s, want %s", rep.Variant, wantVariant)
	}
	challenge := d["challenge_hex"]
	if rep.ETQW {
		challenge = d["field1_challenge_echo_hex"]
		if got := fmt.Sprintf("%08x", rep.Field2); got != d["field2_hex"] {
			t.Errorf("field2 = %s, want %s", got, d["field2_hex"])
		}
		if int64(rep.Size) != num(d["size"]) {
			t.Errorf("size = %d, want %v", rep.Size, d["size"])
		}
	}
	var le [4]byte
	for i := range le {
		le[i] = byte(rep.Challenge >> (8 * i))
	}
	if got := hex.EncodeToString(le[:]); got != challenge {
		t.Errorf("challenge bytes = %s, want %s", got, challenge)
	}
	if int64(rep.Protocol) != num(d["protocol"]) || fmt.Sprintf("%d.%d", rep.Major(), rep.Minor()) != d["protocol_str"] {
		t.Errorf("protocol = %#x, want %v (%v)", rep.Protocol, d["protocol"], d["protocol_str"])
	}
	info := d["info"].([]any)
	if len(rep.Info) != len(info) || int64(len(info)) != num(d["info_pair_count"]) {
		t.Fatalf("pairs = %d, want %d", len(rep.Info), len(info))
	}
	for i, kv := range info {
		kv := kv.([]any)
		if k, v := prototest.FixtureBytes(t, kv[0]), prototest.FixtureBytes(t, kv[1]); rep.Info[i] != (pair{k, v}) {
			t.Errorf("pair %d = %q, want %q=%q", i, rep.Info[i], k, v)
		}
	}
	players := d["players"].([]any)
	if len(rep.Players) != len(players) || int64(len(players)) != num(d["player_count"]) {
		t.Fatalf("players = %d, want %d", len(rep.Players), len(players))
	}
	for i, p := range players {
		checkFixturePlayer(t, i, rep.Players[i], p.(map[string]any))
	}
	if !rep.HasOSMask || int64(rep.OSMask) != num(d["os_mask"]) {
		t.Errorf("os mask = %v %#x, want %v", rep.HasOSMask, rep.OSMask, d["os_mask"])
	}
	if got := hex.EncodeToString(rep.Trailing); got != d["trailing_hex"] {
		t.Errorf("trailing = %s, want %s", got, d["trailing_hex"])
	}
	if rep.ETQW {
		checkFixtureTail(t, rep, d)
	}
	checkFixtureResult(t, rep, d)
}

func checkFixturePlayer(t *testing.T, i int, got player, w map[string]any) {
	t.Helper()
	ok := int64(got.ID) == num(w["id"]) && int64(got.Ping) == num(w["ping"]) && got.Name == prototest.FixtureBytes(t, w["name"])
	if r, has := w["rate"]; has != got.HasRate || (has && int64(got.Rate) != num(r)) {
		ok = false
	}
	if c, has := w["clan"]; has && got.Clan != prototest.FixtureBytes(t, c) {
		ok = false
	}
	if c, has := w["clantag"]; has && (got.Clan != prototest.FixtureBytes(t, c) || int64(got.ClanPos) != num(w["clantag_pos"])) {
		ok = false
	}
	if b, has := w["bot"]; has != got.HasBot || (has && got.Bot != (num(b) == 1)) {
		ok = false
	}
	if !ok {
		t.Errorf("player %d = %+v, want %v", i, got, w)
	}
}

func checkFixtureTail(t *testing.T, rep *reply, d map[string]any) {
	t.Helper()
	tl := rep.Tail
	if tl == nil {
		t.Fatal("no ET:QW tail")
	}
	if tl.Ranked != (num(d["ranked"]) == 1) || int64(tl.TimeLeft) != num(d["time_left"]) ||
		int64(tl.GameState) != num(d["game_state"]) || int64(tl.ServerType) != num(d["server_type"]) ||
		int64(tl.Interested) != num(d["interested_clients"]) {
		t.Errorf("tail = %+v, want %v", *tl, d)
	}
	ext, has := d["extended_players"].([]any)
	if !has {
		return
	}
	if len(ext) != len(rep.Players) {
		t.Fatalf("%d extended records for %d players", len(ext), len(rep.Players))
	}
	for i, e := range ext {
		e := e.(map[string]any)
		p := rep.Players[i]
		if !p.Ext || int64(p.ID) != num(e["id"]) || float64(p.XP) != e["xp"].(float64) || p.Team != e["team"] ||
			int64(p.Kills) != num(e["kills"]) || int64(p.Deaths) != num(e["deaths"]) {
			t.Errorf("extended player %d = %+v, want %v", i, p, e)
		}
	}
}

// checkFixtureResult checks the mapping to Result against the same JSON.
func checkFixtureResult(t *testing.T, rep *reply, d map[string]any) {
	t.Helper()
	res := rep.Result(true, false)
	lookup := func(key string) string {
		for _, kv := range d["info"].([]any) {
			kv := kv.([]any)
			if strings.EqualFold(prototest.FixtureBytes(t, kv[0]), key) {
				return prototest.FixtureBytes(t, kv[1])
			}
		}
		return ""
	}
	q4 := rep.Variant == variantQuake4
	if want := clean(lookup("si_name"), q4); res.Name != want || strings.Contains(res.Name, "^") {
		t.Errorf("Name = %q, want %q", res.Name, want)
	}
	wantMap := lookup("si_map")
	if rep.Variant == variantETQW {
		wantMap = strings.TrimSuffix(strings.TrimPrefix(wantMap, "maps/"), ".entities")
	}
	if res.Map != wantMap || strings.Contains(res.Map, "/") && rep.Variant == variantETQW {
		t.Errorf("Map = %q, want %q", res.Map, wantMap)
	}
	if res.Version != lookup("si_version") || res.Game != lookup("gamename") {
		t.Errorf("Version/Game = %q/%q", res.Version, res.Game)
	}
	var bots int64
	for _, p := range d["players"].([]any) {
		if b, ok := p.(map[string]any)["bot"]; ok && num(b) == 1 {
			bots++
		}
	}
	// Players counts the humans: the listed clients less the flagged bots.
	if res.Players != protocols.Known(num(d["player_count"])-bots) || !res.MaxPlayers.Known {
		t.Errorf("Players/Max = %+v/%+v, want %d humans", res.Players, res.MaxPlayers, num(d["player_count"])-bots)
	}
	if (rep.Variant == variantETQW) != res.Bots.Known || res.Bots.Value != bots {
		t.Errorf("Bots = %+v, want %d (ETQW only)", res.Bots, bots)
	}
	if res.Password == protocols.FlagUnknown {
		t.Error("Password unreported")
	}
	for i, p := range res.PlayerList {
		if strings.Contains(p.Name, "^") && !strings.Contains(p.Name, "^ ") {
			t.Errorf("player %d name %q keeps colour codes", i, p.Name)
		}
		if rep.Players[i].Ext != p.Score.Known {
			t.Errorf("player %d score %+v", i, p.Score)
		}
	}
}

// TestDecodeWindows1252: id Tech 4 strings are the bytes the Windows client
// typed: a name that is not UTF-8 is Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	b := vector(t, "doom3_players")
	b = bytes.Replace(b, []byte("^1Red ^7Server"), prototest.MafiaName, 1)
	b = bytes.Replace(b, []byte("^2Alice"), prototest.Marks1252, 1)
	rep, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Result(true, false)
	if res.Name != prototest.MafiaNameText || len(res.PlayerList) == 0 || res.PlayerList[0].Name != prototest.Marks1252Text {
		t.Errorf("name %q, players %+v", res.Name, res.PlayerList)
	}
}
