package doom3

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vectorWant is a testdata/NAME.expected.json: what NAME.hex decodes to.
type vectorWant struct {
	Description  string
	Error        string // the reason of a fatal decode error
	PlayersError string `json:"players_error"` // the reason of reply.PlayersErr
	Pairs        int
	Variant      variant
	Layout       string
	Protocol     string
	Challenge    string
	Trailing     string
	Result       idtechtest.Result
	Info         map[string]string // debug keys in Result.Info
}

func wantOf(t testing.TB, name string) vectorWant {
	return prototest.ReadJSON[vectorWant](t, filepath.Join("testdata", name+".expected.json"))
}

func TestDecodeVectors(t *testing.T) {
	for _, name := range vectorNames(t) {
		t.Run(name, func(t *testing.T) {
			w := wantOf(t, name)
			rep, err := decode(vector(t, name))
			if w.Error != "" {
				if wire.Reason(err) != w.Error || rep != nil && len(rep.Info) != w.Pairs {
					t.Fatalf("err = %v, %d partial pairs; want %s, %d", err, len(rep.Info), w.Error, w.Pairs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if wire.Reason(rep.PlayersErr) != w.PlayersError && !(w.PlayersError == "" && rep.PlayersErr == nil) {
				t.Errorf("PlayersErr = %v, want %s", rep.PlayersErr, w.PlayersError)
			}
			got := fmt.Sprintf("%d %s %s %d.%d %08x %x", len(rep.Info), rep.Variant, rep.Layout, rep.Major(), rep.Minor(), rep.Challenge, rep.Trailing)
			if want := fmt.Sprintf("%d %s %s %s %08s %s", w.Pairs, w.Variant, w.Layout, w.Protocol, w.Challenge, w.Trailing); got != want {
				t.Errorf("pairs, variant, layout, protocol, challenge, trailing = %s, want %s", got, want)
			}
			res := rep.Result(true, true)
			w.Result.Check(t, res)
			// ET:QW flags its bots: Players counts the humans; the others have no flag.
			prototest.CheckBots(t, res, countOf(w.Result.Players), countOf(w.Result.Bots), true)
			prototest.CheckInfoHas(t, res, w.Info)
			if len(res.Rules) != w.Pairs || (rep.PlayersErr != nil) != (len(res.PhaseErrors) == 1) {
				t.Errorf("%d rules, phase errors %v for PlayersErr %v", len(res.Rules), res.PhaseErrors, rep.PlayersErr)
			}
		})
	}
}

// countOf is an expected count as CheckBots takes it.
func countOf(o prototest.Opt[int64]) int64 {
	if o.Null {
		return prototest.Unknown
	}
	return o.V
}

// Past the caps: more pairs than maxPairs (the first maxPairs kept), a datagram
// over maxDatagram.
func TestDecodeTooLarge(t *testing.T) {
	b := append(request("infoResponse", 0), 0x29, 0, 1, 0)
	b = append(append(b, bytes.Repeat([]byte("k\x00v\x00"), maxPairs+1)...), 0, 0, 32)
	rep, err := decode(b)
	if !errors.Is(err, wire.ErrTooLarge) || rep == nil || len(rep.Info) != maxPairs {
		t.Fatalf("err = %v, reply %+v; want too large, %d pairs kept", err, rep, maxPairs)
	}
	if _, err := decode(make([]byte, maxDatagram+1)); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("err = %v, want too large", err)
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

// The Wolfenstein record keeps Doom 3's rate and adds ET:QW's clan-tag fields.
func TestWolfRecords(t *testing.T) {
	rep, err := decode(vector(t, "wolf_players"))
	if err != nil || rep.PlayersErr != nil {
		t.Fatal(err, rep.PlayersErr)
	}
	want := []player{
		{ID: 0, Ping: 45, Rate: 25000, HasRate: true, Name: "Blazko", Clan: "[OSA]", HasBot: true},
		{ID: 3, Name: "Bot Hans", HasRate: true, ClanPos: 1, Bot: true, HasBot: true},
	}
	if !slices.Equal(rep.Players, want) {
		t.Errorf("players %+v, want %+v", rep.Players, want)
	}
	rep, err = decode(vector(t, "wolf_hint_term32"))
	if err != nil || len(rep.Players) != 1 || rep.Players[0].ClanPos != 1 || rep.Players[0].Clan != "OSA" || rep.Players[0].Rate != 16384 {
		t.Errorf("hinted reply: %v %+v", err, rep.Players)
	}
}
