package steamtest

import (
	"encoding/hex"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// CheckFixtures runs CheckFixture on every fixture of dir, each in a subtest
// named for it, and returns the fixtures.
func CheckFixtures(t *testing.T, dir string) []Fixture {
	t.Helper()
	fs := Fixtures(t, dir)
	for _, f := range fs {
		t.Run(f.Name, func(t *testing.T) { CheckFixture(t, f) })
	}
	return fs
}

// CheckFixture decodes a real capture (reassembled when split) with the
// family's decoders and compares every value of its .expected.json, the raw
// fields and their mapping onto the exporter's Result and debug Info. It
// returns the message and what it decoded to (*steam.Info, *steam.Players,
// *steam.Rules or the challenge).
func CheckFixture(t *testing.T, f Fixture) ([]byte, any) {
	t.Helper()
	msg := f.Datagrams[0]
	if _, split := f.JSON["fragments"]; split {
		msg = Reassemble(t, f)
	}
	dec := f.JSON["decoded"].(map[string]any)
	c := checker{t, dec}
	var v any
	var err error
	switch dec["type"] {
	case "S2A_INFO_SRC", "S2A_INFO_DETAILED (obsolete GoldSrc)":
		var in *steam.Info
		if in, err = steam.DecodeInfo(msg); err == nil {
			checkInfo(t, c, in)
		}
		v = in
	case "S2A_PLAYER":
		ship := false
		for _, p := range dec["players"].([]any) {
			_, ship = p.(map[string]any)["deaths"]
		}
		var p *steam.Players
		if p, err = steam.DecodePlayers(msg, ship); err == nil {
			checkPlayers(t, c, p, ship)
		}
		v = p
	case "S2A_RULES":
		var r *steam.Rules
		if r, err = steam.DecodeRules(msg); err == nil {
			checkRules(t, c, r)
		}
		v = r
	case "S2C_CHALLENGE":
		var ch []byte
		if ch, err = steam.DecodeChallenge(msg); err == nil {
			c.str("challenge_hex", hex.EncodeToString(ch))
		}
		v = ch
	default:
		t.Fatalf("fixture type %v not handled", dec["type"])
	}
	if err != nil {
		t.Fatal(err)
	}
	return msg, v
}

// infoKeys are the fixture keys the debug Info carries under the same name.
var infoKeys = []string{"address", "folder", "protocol", "players", "max_players", "bots", "server_type",
	"environment", "visibility", "vac", "mod", "version", "app_id", "edf", "game_port", "steam_id", "game_id"}

func checkInfo(t *testing.T, c checker, in *steam.Info) {
	t.Helper()
	c.all(map[string]any{"protocol": in.Protocol, "name": in.Name, "map": in.Map, "folder": in.Folder, "game": in.Game,
		"players": in.Players, "max_players": in.MaxPlayers, "server_type_byte": in.ServerType, "environment_byte": in.Environment,
		"visibility": in.Visibility, "trailing_bytes": in.Trailing})
	if in.Truncated || in.UnknownEDF {
		t.Errorf("Truncated %v, UnknownEDF %v on a real capture", in.Truncated, in.UnknownEDF)
	}
	if in.Type == steam.TypeInfoDetailed {
		checkDetailed(t, c, in)
	} else {
		checkSource(t, c, in)
	}

	// The Result mapping: humans = players - bots, Rust's keyword counts win.
	r := in.Result()
	if r.Name != steam.Text(in.Name) || r.Map != steam.Text(in.Map) || r.Game != steam.Text(in.Game) {
		t.Errorf("Result name/map/game = %q/%q/%q", r.Name, r.Map, r.Game)
	}
	want := int64(in.Players) - int64(in.Bots)
	wantMax := int64(in.MaxPlayers)
	if in.FullAppID() == steam.AppIDRust {
		want, wantMax = rustCount(in.Keywords, "cp"), rustCount(in.Keywords, "mp")
	}
	wantBots := protocols.Count{}
	if c.present("bots") {
		wantBots = protocols.Known(int64(in.Bots))
	}
	if r.Players != protocols.Known(want) || r.MaxPlayers != protocols.Known(wantMax) || r.Bots != wantBots {
		t.Errorf("Result players %+v max %+v bots %+v, want %d/%d/%+v", r.Players, r.MaxPlayers, r.Bots, want, wantMax, wantBots)
	}
	if r.Password != protocols.FlagOf(in.Visibility != 0) {
		t.Errorf("Result password %v", r.Password)
	}
	if c.present("version") && r.Version != steam.Text(in.Version) {
		t.Errorf("Result version %q, want %q", r.Version, in.Version)
	}
	checkInfoKV(t, c, r.InfoKV(), in.Trailing)
}

// checkDetailed checks GoldSrc's detailed reply (0x6D) against its fixture.
func checkDetailed(t *testing.T, c checker, in *steam.Info) {
	t.Helper()
	if c.present("bots") != in.HasBots {
		t.Errorf("HasBots = %v, fixture bots %v", in.HasBots, c.want["bots"])
	}
	c.all(map[string]any{"address": in.Address, "vac": in.VAC, "bots": in.Bots, "mod": map[bool]int{false: 0, true: 1}[in.Mod != nil]})
	if m, ok := c.want["mod_info"].(map[string]any); ok {
		checker{t, m}.all(map[string]any{"link": in.Mod.Link, "download_link": in.Mod.DownloadLink, "third_string": in.Mod.Reserved,
			"version": in.Mod.Version, "size": in.Mod.Size, "type": in.Mod.Type, "dll": in.Mod.DLL})
	}
}

// checkSource checks Source's reply (0x49) and its extra data against its fixture.
func checkSource(t *testing.T, c checker, in *steam.Info) {
	t.Helper()
	c.all(map[string]any{"app_id": in.AppID, "bots": in.Bots, "vac": in.VAC, "version": in.Version, "edf": in.EDF})
	for _, f := range []struct {
		key string
		bit byte
	}{{"game_port", steam.EDFPort}, {"steam_id", steam.EDFSteamID}, {"spectator_port", steam.EDFSpectator}, {"keywords", steam.EDFKeywords}, {"game_id", steam.EDFGameID}} {
		if c.present(f.key) != (in.Extra&f.bit != 0) {
			t.Errorf("%s: fixture has it %v, decoded bits %#x", f.key, c.present(f.key), in.Extra)
		}
	}
	c.all(map[string]any{"game_port": in.GamePort, "steam_id": int64(in.SteamID), "spectator_port": in.SpectatorPort, "spectator_name": in.SpectatorName,
		"keywords": in.Keywords, "game_id": int64(in.GameID), "game_id_app_id": in.FullAppID()})
	if s, ok := c.want["the_ship"].(map[string]any); ok != in.HasShip {
		t.Errorf("HasShip = %v, fixture the_ship %v", in.HasShip, ok)
	} else if ok {
		checker{t, s}.all(map[string]any{"mode": in.ShipMode, "witnesses": in.ShipWitnesses, "duration": in.ShipTime})
	}
}

// checkInfoKV wants every raw field in the debug key/values under the
// fixture's key name (the mod block's with a mod_ prefix), absent where the
// fixture has null, and trailing_bytes only when there are some.
func checkInfoKV(t *testing.T, c checker, kvs []protocols.KV, trailing int) {
	t.Helper()
	CheckKV(t, kvs)
	kv := prototest.KVMap(kvs)
	// Info's app_id is the full one (from game_id); a server type 0 reads "0".
	alias := map[string]string{"app_id": "game_id_app_id"}
	if c.want["server_type_byte"] == 0.0 {
		alias["server_type"] = "server_type_byte"
	}
	for _, k := range infoKeys {
		from := k
		if a := alias[k]; c.present(a) {
			from = a
		}
		want, ok := c.want[from]
		got, have := kv[k]
		switch {
		case !ok:
		case want == nil && have:
			t.Errorf("Info %s = %q, fixture says absent", k, got)
		case want != nil && (!have || got != c.text(from)):
			t.Errorf("Info %s = %q (present %v), want %q", k, got, have, c.text(from))
		}
	}
	if m, ok := c.want["mod_info"].(map[string]any); ok {
		mc := checker{t, m}
		for k, key := range map[string]string{"link": "mod_link", "download_link": "mod_download_link",
			"version": "mod_version", "size": "mod_size", "type": "mod_type", "dll": "mod_dll"} {
			if kv[key] != mc.text(k) {
				t.Errorf("Info %s = %q, want %q", key, kv[key], mc.text(k))
			}
		}
	}
	if v, ok := kv["trailing_bytes"]; ok != (trailing != 0) {
		t.Errorf("Info trailing_bytes %q, %d trailing", v, trailing)
	}
}

// rustCount is the test's own reading of a Rust count tag (cp93, mp125); -1 when
// the keywords have none.
func rustCount(keywords, prefix string) int64 {
	for _, tag := range strings.Split(keywords, ",") {
		tag = strings.TrimSpace(tag)
		if n, err := strconv.ParseInt(strings.TrimPrefix(tag, prefix), 10, 64); strings.HasPrefix(tag, prefix) && err == nil {
			return n
		}
	}
	return -1
}

func checkPlayers(t *testing.T, c checker, p *steam.Players, ship bool) {
	t.Helper()
	c.all(map[string]any{"count": p.Count, "trailing_bytes": p.Trailing})
	want := c.want["players"].([]any)
	if len(p.List) != len(want) {
		t.Fatalf("%d players, want %d", len(p.List), len(want))
	}
	if p.TheShip != ship {
		t.Errorf("TheShip = %v, want %v", p.TheShip, ship)
	}
	for i, w := range want {
		pc, pl := checker{t, w.(map[string]any)}, p.List[i]
		pc.all(map[string]any{"index": pl.Index, "name": pl.Name, "score": pl.Score, "deaths": pl.Deaths, "money": pl.Money})
		if d := pc.want["duration"].(float64); float64(pl.Duration) != d {
			t.Errorf("player %d duration %v, want %v", i, pl.Duration, d)
		}
	}
	res := p.Result(0)
	if len(res) != len(p.List) {
		t.Fatalf("Result has %d players", len(res))
	}
	for i, r := range res {
		d := float64(p.List[i].Duration)
		known := d >= 0 && !math.IsInf(d, 0)
		if r.DurationKnown != known || known && r.Duration != d || r.Score != protocols.Known(int64(p.List[i].Score)) || r.Name != steam.Text(p.List[i].Name) {
			t.Errorf("Result player %d = %+v", i, r)
		}
	}
}

func checkRules(t *testing.T, c checker, r *steam.Rules) {
	t.Helper()
	c.all(map[string]any{"count": r.Count, "parsed_rule_count": len(r.List), "trailing_bytes": r.Trailing})
	if tr, _ := c.want["truncated"].(bool); tr != r.Truncated {
		t.Errorf("Truncated = %v, want %v", r.Truncated, tr)
	}
	want := c.want["rules"].([]any)
	if len(want) != len(r.List) {
		t.Fatalf("%d rules, want %d", len(r.List), len(want))
	}
	for i, w := range want {
		pair := w.([]any)
		if k, v := prototest.FixtureBytes(t, pair[0]), prototest.FixtureBytes(t, pair[1]); r.List[i].Key != k || r.List[i].Value != v {
			t.Errorf("rule %d = %q=%q, want %q=%q", i, r.List[i].Key, r.List[i].Value, k, v)
		}
	}
	res := r.Result()
	if len(res) != len(r.List) {
		t.Fatalf("Result has %d rules", len(res))
	}
	for i, kv := range res {
		if kv.Key != steam.Text(r.List[i].Key) || kv.Value != steam.Text(r.List[i].Value) {
			t.Errorf("Result rule %d = %q=%q", i, kv.Key, kv.Value)
		}
	}
}

// checker compares decoded values with a fixture's JSON and reports mismatches.
type checker struct {
	t    *testing.T
	want map[string]any
}

func (c checker) int(key string, got int64) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := Int(c.t, v); w != got {
			c.t.Errorf("%s = %d, want %d", key, got, w)
		}
	}
}

func (c checker) str(key, got string) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := prototest.FixtureBytes(c.t, v); w != got {
			c.t.Errorf("%s = %q, want %q", key, got, w)
		}
	}
}

// all compares each value with the fixture's key, as int or str by its kind.
func (c checker) all(vals map[string]any) {
	c.t.Helper()
	for k, v := range vals {
		switch rv := reflect.ValueOf(v); {
		case rv.Kind() == reflect.String:
			c.str(k, rv.String())
		case rv.CanInt():
			c.int(k, rv.Int())
		default:
			c.int(k, int64(rv.Uint()))
		}
	}
}

func (c checker) present(key string) bool {
	v, ok := c.want[key]
	return ok && v != nil
}

// text returns a fixture value as the debug output writes it: numbers in
// decimal, strings as valid UTF-8.
func (c checker) text(key string) string {
	c.t.Helper()
	if x, ok := c.want[key].(float64); ok {
		return strconv.FormatInt(int64(x), 10)
	}
	return steam.Text(prototest.FixtureBytes(c.t, c.want[key]))
}
