package a2s

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The real captures in shared/fixtures, read in place: every .expected.json is
// decoded and compared field by field.

func TestFixturesA2S(t *testing.T)         { runFixtures(t, fixtures(t, "a2s")) }
func TestFixturesConstructed(t *testing.T) { runFixtures(t, fixtures(t, "a2s", "constructed")) }
func TestFixturesGoldSrc(t *testing.T)     { runFixtures(t, fixtures(t, "goldsrc")) }

func runFixtures(t *testing.T, fs []steamtest.Fixture) {
	for _, f := range fs {
		t.Run(f.Name, func(t *testing.T) { checkFixture(t, f) })
	}
}

func checkFixture(t *testing.T, f steamtest.Fixture) {
	msg := f.Datagrams[0]
	if _, split := f.JSON["fragments"]; split {
		msg = steamtest.Reassemble(t, f)
	}
	dec := f.JSON["decoded"].(map[string]any)
	c := checker{t, dec}
	switch dec["type"] {
	case "S2A_INFO_SRC", "S2A_INFO_DETAILED (obsolete GoldSrc)":
		in, err := steam.DecodeInfo(msg)
		if err != nil {
			t.Fatal(err)
		}
		checkInfo(t, c, in)
	case "S2A_PLAYER":
		ship := false
		for _, p := range dec["players"].([]any) {
			_, ship = p.(map[string]any)["deaths"]
		}
		p, err := steam.DecodePlayers(msg, ship)
		if err != nil {
			t.Fatal(err)
		}
		checkPlayers(t, c, p, ship)
	case "S2A_RULES":
		r, err := steam.DecodeRules(msg)
		if err != nil {
			t.Fatal(err)
		}
		checkRules(t, c, r)
	case "S2C_CHALLENGE":
		ch, err := steam.DecodeChallenge(msg)
		if err != nil {
			t.Fatal(err)
		}
		c.str("challenge_hex", hex.EncodeToString(ch))
	default:
		t.Fatalf("fixture type %v not handled", dec["type"])
	}
}

func checkInfo(t *testing.T, c checker, in *steam.Info) {
	t.Helper()
	c.int("protocol", int64(in.Protocol))
	c.str("name", in.Name)
	c.str("map", in.Map)
	c.str("folder", in.Folder)
	c.str("game", in.Game)
	c.int("players", int64(in.Players))
	c.int("max_players", int64(in.MaxPlayers))
	c.int("server_type_byte", int64(in.ServerType))
	c.int("environment_byte", int64(in.Environment))
	c.int("visibility", int64(in.Visibility))
	c.int("trailing_bytes", int64(in.Trailing))
	if in.Truncated || in.UnknownEDF {
		t.Errorf("Truncated %v, UnknownEDF %v on a real capture", in.Truncated, in.UnknownEDF)
	}
	if in.Type == steam.TypeInfoDetailed {
		c.str("address", in.Address)
		c.int("vac", int64(in.VAC))
		if c.present("bots") != in.HasBots {
			t.Errorf("HasBots = %v, fixture bots %v", in.HasBots, c.want["bots"])
		}
		c.int("bots", int64(in.Bots))
		c.int("mod", map[bool]int64{false: 0, true: 1}[in.Mod != nil])
		if m, ok := c.want["mod_info"].(map[string]any); ok {
			mc := checker{t, m}
			mc.str("link", in.Mod.Link)
			mc.str("download_link", in.Mod.DownloadLink)
			mc.str("third_string", in.Mod.Reserved)
			mc.int("version", int64(in.Mod.Version))
			mc.int("size", int64(in.Mod.Size))
			mc.int("type", int64(in.Mod.Type))
			mc.int("dll", int64(in.Mod.DLL))
		}
	} else {
		c.int("app_id", int64(in.AppID))
		c.int("bots", int64(in.Bots))
		c.int("vac", int64(in.VAC))
		c.str("version", in.Version)
		c.int("edf", int64(in.EDF))
		for _, f := range []struct {
			key string
			bit byte
		}{{"game_port", steam.EDFPort}, {"steam_id", steam.EDFSteamID}, {"spectator_port", steam.EDFSpectator}, {"keywords", steam.EDFKeywords}, {"game_id", steam.EDFGameID}} {
			if c.present(f.key) != (in.Extra&f.bit != 0) {
				t.Errorf("%s: fixture has it %v, decoded bits %#x", f.key, c.present(f.key), in.Extra)
			}
		}
		c.int("game_port", int64(in.GamePort))
		c.int("steam_id", int64(in.SteamID))
		c.int("spectator_port", int64(in.SpectatorPort))
		c.str("spectator_name", in.SpectatorName)
		c.str("keywords", in.Keywords)
		c.int("game_id", int64(in.GameID))
		c.int("game_id_app_id", int64(in.FullAppID()))
		if s, ok := c.want["the_ship"].(map[string]any); ok != in.HasShip {
			t.Errorf("HasShip = %v, fixture the_ship %v", in.HasShip, ok)
		} else if ok {
			sc := checker{t, s}
			sc.int("mode", int64(in.ShipMode))
			sc.int("witnesses", int64(in.ShipWitnesses))
			sc.int("duration", int64(in.ShipTime))
		}
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
	if r.Players != protocols.Known(want) || r.MaxPlayers != protocols.Known(wantMax) {
		t.Errorf("Result players %+v max %+v, want %d/%d", r.Players, r.MaxPlayers, want, wantMax)
	}
	if r.Password != protocols.FlagOf(in.Visibility != 0) {
		t.Errorf("Result password %v", r.Password)
	}
	checkKV(t, r.InfoKV())
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

var checkKV = steamtest.CheckKV

func checkPlayers(t *testing.T, c checker, p *steam.Players, ship bool) {
	t.Helper()
	c.int("count", int64(p.Count))
	c.int("trailing_bytes", int64(p.Trailing))
	want := c.want["players"].([]any)
	if len(p.List) != len(want) {
		t.Fatalf("%d players, want %d", len(p.List), len(want))
	}
	if p.TheShip != ship {
		t.Errorf("TheShip = %v, want %v", p.TheShip, ship)
	}
	for i, w := range want {
		pc := checker{t, w.(map[string]any)}
		pl := p.List[i]
		pc.int("index", int64(pl.Index))
		pc.str("name", pl.Name)
		pc.int("score", int64(pl.Score))
		pc.int("deaths", int64(pl.Deaths))
		pc.int("money", int64(pl.Money))
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
		if r.DurationKnown != (d >= 0 && !math.IsInf(d, 0)) || r.Score != protocols.Known(int64(p.List[i].Score)) {
			t.Errorf("Result player %d = %+v", i, r)
		}
	}
}

func checkRules(t *testing.T, c checker, r *steam.Rules) {
	t.Helper()
	c.int("count", int64(r.Count))
	c.int("parsed_rule_count", int64(len(r.List)))
	c.int("trailing_bytes", int64(r.Trailing))
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
		if steam.Text(kv.Value) != kv.Value || (kv.Value == r.List[i].Value) != (steam.Text(r.List[i].Value) == r.List[i].Value) {
			t.Errorf("Result rule %d = %q", i, kv.Value)
		}
	}
}
