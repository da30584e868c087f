package gamespy4

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// vector reads testdata/<name>.bin, or the annotated <name>.vec.
func vector(t testing.TB, name string) []byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return b
	}
	return prototest.VecFile(t, name)
}

// TestDecodeVectors runs the vectors of testdata/, written from the spec
// (vectors.json says what each decodes to); the annotated .vec ones cut a
// datagram short of a stat reply's header, a path otherwise only the captures
// of ../shared/fixtures reach. Minecraft's query says nothing of a password:
// unknown.
func TestDecodeVectors(t *testing.T) {
	gt.Vectors(t, func(t *testing.T, v gt.Vector) (*protocols.Result, error) {
		decode := decodeFull
		if v.Decoder == "basic" {
			decode = decodeBasic
		}
		st, err := decode(vector(t, v.Name))
		if st == nil {
			return nil, err
		}
		res := st.result(true, true)
		if len(res.Rules) != len(res.Info) {
			t.Errorf("rules %v", res.Rules)
		}
		return res, err
	})
}

// colour is the test's own reading of the § rule, to check the decoder's.
var colour = regexp.MustCompile(`§.?`)

// TestDecodeGameQFixtures decodes GameQ's Minecraft and PocketMine-MP full-stat
// captures and asserts its values: every K/V pair (ISO-8859-1 decoded), the player
// names, and the Result fields.
func TestDecodeGameQFixtures(t *testing.T) {
	dir := prototest.FixtureDir(t, fixtureProto)
	var names []string
	for _, pat := range []string{"minecraft_fullstat_*.expected.json", "pocketmine_fullstat_*.expected.json"} {
		files, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range files {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".expected.json"))
		}
	}
	if len(names) != 6 {
		t.Fatalf("%d GameQ Minecraft fixtures, want 6", len(names))
	}
	reading := gt.Reading{
		Name: func(s string) string { return strings.TrimSpace(colour.ReplaceAllString(s, "")) },
		Map:  "map", Game: []string{"game_id"}, Version: []string{"version"},
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			e := gt.ReadGameQ(t, fixtureProto, name)
			gt.CheckGameQ(t, decodeFixture(t, e), e.Want, reading)
		})
	}
}

// TestBotsMeaning: the Minecraft query carries no bot count or flag: Players
// is numplayers as sent, even over a shorter list; Bots stays unknown. The
// vectors' rows pin the same for every reply (no row is marked).
func TestBotsMeaning(t *testing.T) {
	st, err := decodeFull(vector(t, "full_utf8"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, st.result(true, false), 32, prototest.Unknown, false)
}

// The Minecraft Query captures live with the other GameSpy v3/v4 ones; the
// minecraft fixture folder holds only Server List Ping captures (checked below).
const fixtureProto = "gamespy3"

func decodeFixture(t *testing.T, e gt.GameQ) *protocols.Result {
	t.Helper()
	st, err := decodeFull(e.Parts[0])
	prototest.NoError(t, err)
	return st.result(true, true)
}

// TestDecodeMcstatusFixtures decodes the mcstatus test arrays (session and padding
// zeroed in three of them; GeyserMC's own padding and key order in the fourth; MOTDs
// holding NUL bytes) and asserts the tests' values.
func TestDecodeMcstatusFixtures(t *testing.T) {
	prototest.FixtureDir(t, fixtureProto)
	t.Run("vanilla_1.8", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_vanilla_1.8")
		res := decodeFixture(t, e)
		raw := e.Want["raw"].(map[string]any)
		if info := fmt.Sprint(prototest.InfoOf(res)); len(res.Info) != len(raw) || info != fmt.Sprint(raw) {
			t.Errorf("info %s, want %v", info, raw)
		}
		if got := prototest.PlayerNames(res); got != fmt.Sprint(e.Want["players"]) {
			t.Errorf("players %s, want %v", got, e.Want["players"])
		}
		if res.Name != "A Minecraft Server" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(20) || res.Map != "world" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("geyser", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_geyser")
		res := decodeFixture(t, e)
		var order []string
		for _, kv := range res.Info {
			order = append(order, kv.Key)
		}
		if fmt.Sprint(order) != fmt.Sprint(e.Want["raw_key_order"]) {
			t.Errorf("key order %v, want %v", order, e.Want["raw_key_order"])
		}
		if res.Name != gt.Str(e.Want, "motd_plain") || res.Version != gt.Str(e.Want, "software.version") ||
			res.Game != gt.Str(e.Want, "raw.game_id") || len(res.PlayerList) != 0 || res.Players != protocols.Known(1) {
			t.Errorf("result %+v", res)
		}
	})
	for _, name := range []string{"motd_with_nul", "motd_2a00"} {
		t.Run(name, func(t *testing.T) {
			e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_"+name)
			res := decodeFixture(t, e)
			if res.Name != gt.Str(e.Want, "motd") || res.Game != gt.Str(e.Want, "raw.game_id") {
				t.Errorf("name %q game %q, want %q %q", res.Name, res.Game, gt.Str(e.Want, "motd"), gt.Str(e.Want, "raw.game_id"))
			}
			for _, k := range []string{"version", "plugins"} {
				if w, ok := e.Want["raw."+k].(string); ok {
					if got, _ := gt.Info(res, k); got != w {
						t.Errorf("%s %q, want %q", k, got, w)
					}
				}
			}
			// The resynchronised MOTD leaves every later pair in place.
			if got, _ := gt.Info(res, "gametype"); got != "SMP" || res.Map != "world" {
				t.Errorf("gametype %q map %q", got, res.Map)
			}
		})
	}
	t.Run("handshake", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_handshake_response")
		session, token, _, err := gamespy.ParseChallenge(e.Parts[0])
		want := uint32(e.Want["challenge_int32"].(float64))
		if err != nil || session != [4]byte{} || token != [4]byte{byte(want >> 24), byte(want >> 16), byte(want >> 8), byte(want)} {
			t.Errorf("session %x token %x, %v; want %08x", session, token, err, want)
		}
	})
}

// TestMinecraftFixtureFolder documents why no capture of ../shared/fixtures/minecraft
// is decoded here: they are all Server List Ping (TCP) or legacy ping data, which
// neither the handshake parser nor the stat decoders take for a Query reply.
func TestMinecraftFixtureFolder(t *testing.T) {
	dir := prototest.FixtureDir(t, "minecraft")
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", dir)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if !strings.HasPrefix(base, "mcstatus_slp_") && !strings.HasPrefix(base, "mcstatus_legacy_") {
			t.Errorf("%s may be a Query capture: decode it here", base)
		}
		b, err := os.ReadFile(f)
		prototest.NoError(t, err)
		if _, _, _, err := gamespy.ParseChallenge(b); err == nil {
			t.Errorf("%s reads as a handshake reply", base)
		}
		// A stat reply always has key/values (hostname first).
		if st, err := decodeFull(b); err == nil && len(st.kv) > 0 {
			t.Errorf("%s reads as a full stat reply: %q", base, st.kv)
		}
		if st, err := decodeBasic(b); err == nil {
			t.Errorf("%s reads as a basic stat reply: %q", base, st.kv)
		}
	}
}

// FuzzDecode feeds one datagram to both stat decoders.
func FuzzDecode(f *testing.F) {
	gt.Seeds(f, fixtureProto, []string{"minecraft_*.bin", "pocketmine_*.bin", "mcstatus_*.bin"})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range []func([]byte) (*stat, error){decodeFull, decodeBasic} {
			st, err := decode(b)
			var res *protocols.Result
			if st != nil {
				if len(st.players) > maxNames || len(st.kv) > maxPairs {
					t.Fatalf("%d players, %d pairs", len(st.players), len(st.kv))
				}
				res = st.result(true, true)
			}
			gt.CheckDecoded(t, res, err, maxNames)
		}
	})
}

// benchFull measures the full-stat decoder and its Result on v.
func benchFull(b *testing.B, v []byte) {
	prototest.DecodeBench(b, v, func(v []byte) error {
		st, err := decodeFull(v)
		if err == nil {
			st.result(true, true)
		}
		return err
	})
}

func BenchmarkDecodeFull(b *testing.B) { benchFull(b, vector(b, "full_vanilla")) }

// BenchmarkDecodeFixture decodes a 1.6 KB Bukkit reply with 15 players and 50 plugins.
func BenchmarkDecodeFixture(b *testing.B) {
	benchFull(b, prototest.Fixture(b, fixtureProto, "minecraft_fullstat_2.bin"))
}

func BenchmarkDecodeBasic(b *testing.B) {
	prototest.DecodeBench(b, vector(b, "basic"), func(v []byte) error {
		_, err := decodeBasic(v)
		return err
	})
}
