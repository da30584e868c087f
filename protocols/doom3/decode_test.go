package doom3

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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
	for _, name := range prototest.Names(t, ".hex") {
		t.Run(name, func(t *testing.T) {
			w := wantOf(t, name)
			rep, err := decode(vector(t, name), wire.UTF8)
			if w.Error != "" {
				if wire.Reason(err) != w.Error || rep != nil && len(rep.Info) != w.Pairs {
					t.Fatalf("err = %v, %d partial pairs; want %s, %d", err, len(rep.Info), w.Error, w.Pairs)
				}
				return
			}
			prototest.NoError(t, err)
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
	rep, err := decode(b, wire.UTF8)
	if !errors.Is(err, wire.ErrTooLarge) || rep == nil || len(rep.Info) != maxPairs {
		t.Fatalf("err = %v, reply %+v; want too large, %d pairs kept", err, rep, maxPairs)
	}
	if _, err := decode(make([]byte, maxDatagram+1), wire.UTF8); !errors.Is(err, wire.ErrTooLarge) {
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

// fixture is what a shared/fixtures/doom3 .expected.json says its capture
// decodes to (PROVENANCE.md); the ET:QW fields are zero for the others.
type fixture struct {
	Response, Variant string
	Challenge         string `json:"challenge_hex"`
	Echo              string `json:"field1_challenge_echo_hex"`
	Field2            string `json:"field2_hex"`
	Size, Protocol    int
	ProtocolStr       string `json:"protocol_str"`
	Info              [][2]prototest.FixtureString
	InfoPairs         int `json:"info_pair_count"`
	Players           []fixturePlayer
	PlayerCount       int    `json:"player_count"`
	OSMask            int    `json:"os_mask"`
	Trailing          string `json:"trailing_hex"`
	Ranked            int
	TimeLeft          int          `json:"time_left"`
	GameState         int          `json:"game_state"`
	ServerType        int          `json:"server_type"`
	Interested        int          `json:"interested_clients"`
	Extended          []fixtureExt `json:"extended_players"`
}

// fixturePlayer is a player record; what the variant does not send is absent.
type fixturePlayer struct {
	ID, Ping      int
	Rate          *int
	Name          prototest.FixtureString
	Clan, ClanTag *prototest.FixtureString
	ClanTagPos    int `json:"clantag_pos"`
	Bot           *int
}

type fixtureExt struct {
	ID            int
	XP            float64
	Team          string
	Kills, Deaths int
}

// decoded is what rep says of the fields w states, laid out as w.
func decoded(rep *reply, w fixture) fixture {
	le := hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, rep.Challenge))
	g := fixture{Response: rep.Response, Variant: string(rep.Variant), Challenge: le, Protocol: int(rep.Protocol),
		ProtocolStr: fmt.Sprintf("%d.%d", rep.Major(), rep.Minor()), InfoPairs: len(rep.Info), PlayerCount: len(rep.Players),
		OSMask: -1, Trailing: hex.EncodeToString(rep.Trailing)}
	if rep.HasOSMask {
		g.OSMask = int(rep.OSMask)
	}
	if rep.ETQW {
		g.Challenge, g.Echo, g.Field2, g.Size = "", le, fmt.Sprintf("%08x", rep.Field2), int(rep.Size)
	}
	if tl := rep.Tail; tl != nil {
		g.Ranked, g.TimeLeft, g.GameState, g.ServerType, g.Interested = flag(tl.Ranked), int(tl.TimeLeft), int(tl.GameState), int(tl.ServerType), int(tl.Interested)
	}
	for _, kv := range rep.Info {
		g.Info = append(g.Info, [2]prototest.FixtureString{prototest.FixtureString(kv.Key), prototest.FixtureString(kv.Value)})
	}
	for i, p := range rep.Players {
		gp, clan := fixturePlayer{ID: int(p.ID), Ping: int(p.Ping), Name: prototest.FixtureString(p.Name)}, prototest.FixtureString(p.Clan)
		if p.HasRate {
			gp.Rate = &[]int{int(p.Rate)}[0]
		}
		if p.HasBot {
			gp.Bot = &[]int{flag(p.Bot)}[0]
		}
		if i < len(w.Players) && w.Players[i].Clan != nil {
			gp.Clan = &clan
		}
		if i < len(w.Players) && w.Players[i].ClanTag != nil {
			gp.ClanTag, gp.ClanTagPos = &clan, int(p.ClanPos)
		}
		g.Players = append(g.Players, gp)
		if p.Ext {
			g.Extended = append(g.Extended, fixtureExt{int(p.ID), float64(p.XP), p.Team, int(p.Kills), int(p.Deaths)})
		}
	}
	g.Info, g.Players, g.Extended = like(g.Info, w.Info), like(g.Players, w.Players), like(g.Extended, w.Extended)
	return g
}

func flag(b bool) int { return map[bool]int{true: 1}[b] }

// decodedAs is a fixture's raw strings (pairs, names, clans) read with text,
// as decode reads the wire's.
func decodedAs(w fixture, text func([]byte) string) fixture {
	dec := func(s prototest.FixtureString) prototest.FixtureString {
		return prototest.FixtureString(text([]byte(s)))
	}
	w.Info = slices.Clone(w.Info)
	for i, kv := range w.Info {
		w.Info[i] = [2]prototest.FixtureString{dec(kv[0]), dec(kv[1])}
	}
	w.Players = slices.Clone(w.Players)
	for i := range w.Players {
		p := &w.Players[i]
		p.Name = dec(p.Name)
		for _, c := range []**prototest.FixtureString{&p.Clan, &p.ClanTag} {
			if *c != nil {
				*c = &[]prototest.FixtureString{dec(**c)}[0]
			}
		}
	}
	return w
}

// like is got, or want when both are empty: JSON tells an empty list from
// none, the decoder need not.
func like[T any](got, want []T) []T {
	if len(got) == 0 && len(want) == 0 {
		return want
	}
	return got
}

// TestDecodeFixtures decodes each capture of shared/fixtures/doom3 and holds
// the reply, and its Result, to the .expected.json.
func TestDecodeFixtures(t *testing.T) {
	prototest.FixtureVectors(t, "doom3", func(t *testing.T, _ string, fx struct {
		Fixture string
		Decoded fixture
	}) {
		rep, err := decode(prototest.Fixture(t, "doom3", fx.Fixture), wire.UTF8)
		prototest.NoError(t, err)
		if rep.PlayersErr != nil || rep.ETQW != (rep.Tail != nil) {
			t.Fatalf("players: %v; ET:QW %v with tail %+v", rep.PlayersErr, rep.ETQW, rep.Tail)
		}
		w := decodedAs(fx.Decoded, wire.UTF8)
		w.Variant, _, _ = strings.Cut(w.Variant, "_") // etqw_info, etqw_infoex: etqw
		if got := decoded(rep, w); !reflect.DeepEqual(got, w) {
			g, _ := json.Marshal(got)
			e, _ := json.Marshal(w)
			t.Errorf("decoded\n%s\nwant\n%s", g, e)
		}
		checkFixtureResult(t, rep)
	})
}

// checkFixtureResult holds the Result to the reply (which the fixture pins):
// names without colour codes, ET:QW's map without its path, the humans apart
// from the flagged bots.
func checkFixtureResult(t *testing.T, rep *reply) {
	t.Helper()
	res := rep.Result(true, false)
	lookup := func(key string) string {
		v, _ := rep.Lookup(key)
		return v
	}
	if want := clean(lookup("si_name"), rep.Variant == variantQuake4); res.Name != want || strings.Contains(res.Name, "^") {
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
	for _, p := range rep.Players {
		bots += int64(flag(p.Bot))
	}
	if res.Players != protocols.Known(int64(len(rep.Players))-bots) || !res.MaxPlayers.Known {
		t.Errorf("Players/Max = %+v/%+v, want %d humans", res.Players, res.MaxPlayers, int64(len(rep.Players))-bots)
	}
	if (rep.Variant == variantETQW) != res.Bots.Known || res.Bots.Value != bots {
		t.Errorf("Bots = %+v, want %d (ETQW only)", res.Bots, bots)
	}
	if res.Password == protocols.FlagUnknown {
		t.Error("Password unreported")
	}
	for i, p := range res.PlayerList {
		if strings.Contains(p.Name, "^") && !strings.Contains(p.Name, "^ ") || rep.Players[i].Ext != p.Score.Known {
			t.Errorf("player %d = %+v: colour codes kept, or a score without the ET:QW statistics", i, p)
		}
	}
}

// The Wolfenstein record keeps Doom 3's rate and adds ET:QW's clan-tag fields.
func TestWolfRecords(t *testing.T) {
	rep, err := decode(vector(t, "wolf_players"), wire.UTF8)
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
	rep, err = decode(vector(t, "wolf_hint_term32"), wire.UTF8)
	if err != nil || len(rep.Players) != 1 || rep.Players[0].ClanPos != 1 || rep.Players[0].Clan != "OSA" || rep.Players[0].Rate != 16384 {
		t.Errorf("hinted reply: %v %+v", err, rep.Players)
	}
}

// vector reads testdata/<name>.hex, an annotated vector in prototest.ParseVec's
// format where @size stands for the u32 LE count of the bytes after it (ET:QW's
// size field).
func vector(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".hex"))
	prototest.NoError(t, err)
	head, tail, sized := strings.Cut(string(src), "@size")
	b, err := prototest.ParseVec(head)
	rest, err2 := prototest.ParseVec(tail)
	if err != nil || err2 != nil {
		t.Fatalf("%s: %v %v", name, err, err2)
	}
	if sized {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(rest)))
	}
	return append(b, rest...)
}

func decodeResult(b []byte) error {
	rep, err := decode(b, wire.UTF8)
	if err == nil {
		rep.Result(true, false)
	}
	return err
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"doom3_players", "quake4_players", "etqw_infoex"} {
		b.Run(name, func(b *testing.B) { prototest.DecodeBench(b, vector(b, name), decodeResult) })
	}
}

// BenchmarkDecodeFixture decodes the largest real capture (16 ET:QW players with
// statistics), when ../shared is present.
func BenchmarkDecodeFixture(b *testing.B) {
	prototest.DecodeBench(b, prototest.Fixture(b, "doom3", "etqw_infoexresponse_players.bin"), decodeResult)
}

// fuzzSeeds are the own vectors and, when ../shared is present, the real captures.
func fuzzSeeds(f *testing.F) {
	for _, name := range prototest.Names(f, ".hex") {
		f.Add(vector(f, name))
	}
	for _, b := range prototest.SharedFiles("fixtures/doom3/*.bin") {
		f.Add(b)
	}
}

func FuzzDecode(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := decode(b, wire.UTF8)
		if rep == nil {
			if err == nil {
				t.Fatal("nil reply without error")
			}
			return
		}
		if len(rep.Info) > maxPairs || len(rep.Players) > asyncClients {
			t.Fatalf("%d pairs, %d players", len(rep.Info), len(rep.Players))
		}
		res := rep.Result(true, true)
		prototest.CheckUTF8(t, res)
		if err == nil && rep.PlayersErr == nil && res.Players.Value+res.Bots.Value != int64(len(rep.Players)) {
			t.Fatalf("players %d and bots %d for %d records", res.Players.Value, res.Bots.Value, len(rep.Players))
		}
	})
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"^1Red", "^c014-^Iw05x", "^", "a^ b", "^^^", "\xc7^\xe9"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, q4 bool) {
		got := clean(s, q4)
		if len(got) > len(s) || (utf8.ValidString(s) && !utf8.ValidString(got)) {
			t.Fatalf("Clean(%q) = %q", s, got)
		}
		if !strings.Contains(s, "^") && got != s {
			t.Fatalf("Clean(%q) changed a string without ^", s)
		}
	})
}
