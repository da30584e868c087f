package gamespy4

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vector reads testdata/<name>.bin, or the annotated <name>.vec.
func vector(t testing.TB, name string) []byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return b
	}
	return prototest.VecFile(t, name)
}

// rows is a list of names, as the stat lists its players.
func rows(names ...string) []gt.Row {
	out := make([]gt.Row, len(names))
	for i, n := range names {
		out[i].Name = n
	}
	return out
}

var known = protocols.Known

// TestDecodeVectors runs the vectors of testdata/, written from the spec; the
// annotated .vec ones cut a datagram short of a stat reply's header, a path
// otherwise only the captures of ../shared/fixtures reach. Minecraft's query
// says nothing of a password: unknown.
func TestDecodeVectors(t *testing.T) {
	full := gt.Head{Name: "Café Craft", Map: "world", Game: "MINECRAFT", Version: "1.20.4", Players: known(3), Max: known(20)}
	for _, tc := range []struct {
		basic bool
		gt.Vector
	}{
		// § codes stripped from the name only; 0xE9 is ISO-8859-1 é.
		{false, gt.Vector{Name: "full_vanilla", Head: gt.Head{Name: full.Name, Map: full.Map, Game: full.Game, Version: full.Version,
			Players: full.Players, Max: full.Max, Info: map[string]string{"hostname": "§aCafé §lCraft§r ", "plugins": "", "hostport": "25565"}},
			Rows: rows("Notch", "jeb_", "Dinnerbone")}},
		// UTF-8 from a third-party server, Geyser padding, keys out of order,
		// numplayers disagreeing with the list (it wins).
		{false, gt.Vector{Name: "full_utf8", Head: gt.Head{Name: "Ünïcødé ★ Gold", Map: "Lobby", Game: "MINECRAFTPE", Version: "v1.20.0",
			Players: known(32), Max: known(91), Info: map[string]string{"whitelist": "off", "server_engine": "PocketMine-MP 5.0"}},
			Rows: rows("Stève")}},
		// NULs inside the MOTD (chars above U+00FF), zeroed padding.
		{false, gt.Vector{Name: "full_motd_nul", Head: gt.Head{Name: "\x00A\x00B", Map: "world", Game: "MINECRAFT", Version: "1.18.1",
			Players: known(0), Max: known(10)}, Rows: rows()}},
		{false, gt.Vector{Name: "full_no_players", Head: full, NoList: true}},
		{false, gt.Vector{Name: "full_cut_kv", Err: wire.ErrTruncated, Head: gt.Head{Name: "Café Craft", Game: "SMP"}, NoList: true}}, // cut inside game_id
		{false, gt.Vector{Name: "full_cut_name", Err: wire.ErrTruncated, Head: full, Rows: rows("Notch", "jeb_")}},
		{false, gt.Vector{Name: "full_short", Err: wire.ErrTruncated, NoResult: true}},
		{false, gt.Vector{Name: "bad_type", Err: wire.ErrMalformed, NoResult: true}},
		{false, gt.Vector{Name: "full_header_cut", Err: wire.ErrTruncated, NoResult: true}},
		{true, gt.Vector{Name: "basic", Head: gt.Head{Name: "Basic Server", Map: "world", Game: "SMP", Players: known(2), Max: known(20),
			Info: map[string]string{"hostport": "25565", "hostip": "127.0.0.1"}}, NoList: true}},
		{true, gt.Vector{Name: "basic_port_nul", Head: gt.Head{Name: "Port", Map: "world", Game: "SMP", Players: known(2), Max: known(20),
			Info: map[string]string{"hostport": "25600"}}, NoList: true}},
		{true, gt.Vector{Name: "basic_motd_nul", Err: wire.ErrMalformed, NoResult: true}},
		{true, gt.Vector{Name: "basic_cut", Err: wire.ErrTruncated, Head: gt.Head{Name: "Cut", Map: "world", Game: "SMP", Players: known(2), Max: known(20)}, NoList: true}},
		{true, gt.Vector{Name: "full_short", Err: wire.ErrTruncated, NoList: true}},
		{true, gt.Vector{Name: "basic_header_cut", Err: wire.ErrTruncated, NoResult: true}},
	} {
		t.Run(tc.Name, func(t *testing.T) {
			decode := decodeFull
			if tc.basic {
				decode = decodeBasic
			}
			st, err := decode(vector(t, tc.Name))
			var res *protocols.Result
			if st != nil {
				res = st.result(true, true)
				if len(res.Rules) != len(res.Info) {
					t.Errorf("rules %v", res.Rules)
				}
			}
			gt.CheckVector(t, res, err, tc.Vector)
		})
	}
}

func TestResultSelection(t *testing.T) {
	st, err := decodeFull(vector(t, "full_vanilla"))
	if err != nil {
		t.Fatal(err)
	}
	res := st.result(false, false)
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) != 10 {
		t.Errorf("players %v rules %v info %d", res.PlayerList, res.Rules, len(res.Info))
	}
}

func TestStripColours(t *testing.T) {
	for in, want := range map[string]string{"": "", "plain": "plain", "§4red§r": "red", "end§": "end", "§§x": "x", "a§kb": "ab"} {
		if got := mctext.StripCodes(in); got != want {
			t.Errorf("mctext.StripCodes(%q) = %q, want %q", in, got, want)
		}
	}
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
