package gamespy1

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// readParts reads the datagrams testdata/<name>.1.bin, .2.bin, ... (arrival
// order), or the annotated testdata/<name>.1.hex, .2.hex, ...
func readParts(t testing.TB, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for i := 1; ; i++ {
		file := filepath.Join("testdata", name+"."+strconv.Itoa(i))
		if b, err := os.ReadFile(file + ".bin"); err == nil {
			out = append(out, b)
		} else if _, err := os.Stat(file + ".hex"); err == nil {
			out = append(out, prototest.HexFile(t, filepath.Base(file)+".hex"))
		} else {
			break
		}
	}
	if len(out) == 0 {
		t.Fatalf("no datagrams for %s", name)
	}
	return out
}

var (
	known = protocols.Known
	r     = gt.R
	s     = gt.S
)

// TestDecodeVectors runs the vectors of testdata/, written from the spec; the
// .hex ones cover paths that otherwise only the real captures reach, so that a
// clone without ../shared tests them too.
func TestDecodeVectors(t *testing.T) {
	for _, v := range []gt.Vector{
		{
			Name: "ut_shuffled", Head: gt.Head{Name: "Test «Server»", Map: "DM-Deck16][", Game: "ut", Version: "451",
				Players: known(3), Max: known(16), Password: protocols.FlagFalse,
				Info: map[string]string{"AdminName": "Adm", "gametype": "DeathMatchPlus"}},
			Rows:    []gt.Row{r("Alpha", 12, 40, "0"), r("Beta", -3, 120, "1"), r("Zoé", 7, 99, "255")},
			NotInfo: []string{"queryid", "final", "keyhash_0", "player_0"},
		},
		{
			// score_N is the score; team_N 1 is teamname_0; "Gone" is a stale third entry.
			Name: "bf_final_first", Head: gt.Head{Name: "BF Test", Map: "berlin", Game: "bfield1942", Version: "v1.61",
				Players: known(2), Max: known(32), Password: protocols.FlagTrue, Info: map[string]string{"active_mods": "xpack1"}},
			Rows:    []gt.Row{r("Axe", 7, 50, "axis"), r("Bow", 3, 60, "allied")},
			NotInfo: []string{"teamname_0"},
		},
		{
			Name: "mohaa_colour", Head: gt.Head{Name: "Red Server", Map: "dm/mohdm7", Game: "mohaa", Version: "1.11",
				Players: known(1), Max: known(32), Info: map[string]string{"hostname": "^3Red ^7Server"}},
			Rows: []gt.Row{r("HotShot", 4, 98, "")},
		},
		{Name: "final_only_packet", Head: gt.Head{Name: "Solo", Map: "m1", Players: known(0), Max: known(8)}, Rows: []gt.Row{}},
		{Name: "duplicate", Head: gt.Head{Name: "Dup", Players: known(1), Max: known(4)}, Rows: []gt.Row{s("One", 1)}},
		{
			Name: "missing_middle", Err: wire.ErrTruncated, Head: gt.Head{Name: "Lossy", Map: "CTF-Face", Players: known(2), Max: known(10)},
			Rows: []gt.Row{s("First", 1), s("Third", 3)},
		},
		{
			Name: "info_no_queryid", Head: gt.Head{Name: "Plain", Map: "DM-Morpheus", Game: "DeathMatchPlus", Players: known(0), Max: known(8),
				Info: map[string]string{"gamemode": "openplaying", "hostport": "7777"}},
			Rows: []gt.Row{},
		},
		{Name: "players_only", Rows: []gt.Row{r("a", 1, 10, "0"), r("b", 2, 20, "1")}},
		{Name: "backslash_name", Head: gt.Head{Players: known(3)}, Rows: []gt.Row{s(`a\b`, 5), s("c", 2), {Name: `x\y\z`}}},
		{Name: "garbled_key", Head: gt.Head{Name: "Garbled", Map: "m"}, Rows: []gt.Row{}, NotInfo: []string{"numplayers", "bad key"}},
		{Name: "no_final", Head: gt.Head{Name: "NoFinal", Players: known(1), Max: known(2)}, Rows: []gt.Row{s("Only", 9)}},
		{Name: "queryid_over_cap", Err: wire.ErrTooLarge, NoResult: true},
		{Name: "after_final", Err: wire.ErrMalformed, NoResult: true},
		{Name: "final_too_early", Err: wire.ErrMalformed, NoResult: true},
		{Name: "strays", Head: gt.Head{Name: "Mine", Map: "Mine-Map", Players: known(0), Max: known(6)}, Rows: []gt.Row{}},
		{
			Name: "lying_numbers", Head: gt.Head{Name: "Numbers", Max: known(16), Info: map[string]string{"password": "maybe"}},
			Rows: []gt.Row{{Name: "p"}},
		},
		{
			Name: "odd_and_teams", Head: gt.Head{Name: "Café 日本", Players: known(0), Info: map[string]string{"password": ""}},
			Rows: []gt.Row{}, NotInfo: []string{"team_t0", "score_t0"},
		},
		{
			// Rule keys that look almost like player fields stay rules.
			Name: "bf1942_rule_keys", Head: gt.Head{Name: "BF Rules", Map: "el_alamein", Game: "bfield1942", Version: "v1.61",
				Players: known(1), Max: known(32), Password: protocols.FlagFalse, Info: map[string]string{
					"allied_team_ratio": "1", "auto_balance_teams": "on", "number_of_rounds": "3",
					"sv_punkbuster": "0", "hit_indicator": "1",
				}},
			Rows:    []gt.Row{r("Sarge", 12, 48, "Allies")},
			NotInfo: []string{"playername_0", "teamname_0", "team_0", "final", "queryid"},
		},
		// Only the data-free last packet arrived: an empty, truncated result.
		{Name: "final_packet_only", Err: wire.ErrTruncated, Rows: []gt.Row{}, NoInfo: true},
	} {
		t.Run(v.Name, func(t *testing.T) {
			res, err := decode(readParts(t, v.Name))
			gt.CheckVector(t, res, err, v)
		})
	}
}

// The order datagrams arrive in never matters, nor does a duplicate.
func TestDecodeAnyOrder(t *testing.T) {
	parts := readParts(t, "ut_shuffled")
	want, err := decode(parts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range [][]int{{0, 1, 2, 0}, {0, 2, 1, 0}, {1, 0, 2, 1}, {1, 2, 0, 1}, {2, 1, 0, 2}, {2, 0, 1, 2}} {
		got, err := decode(gt.Reorder(parts, o...))
		gt.SameResult(t, fmt.Sprint(o), want, got, err)
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
	dups := make([][]byte, maxDatagrams+1)
	for i := range dups {
		dups[i] = []byte(`\hostname\x\queryid\1.1`)
	}
	for name, in := range map[string][][]byte{
		"33 packets": append(stream, []byte(`\k\v\queryid\1.33`)),
		"duplicates": dups, // an endless stream stops at the datagram cap
		"big":        {[]byte(`\a\` + strings.Repeat("x", maxReply) + `\queryid\1.1`)},
	} {
		if _, err := decode(in); !errors.Is(err, wire.ErrTooLarge) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, b := range []string{"", "hostname\\x", "\xff\xff\xff\xff", `\queryid\`, `\queryid\1.x`, `\queryid\1.0`, `\queryid\.1`} {
		_, err := decode([][]byte{[]byte(b)})
		if r := wire.Reason(err); r != "malformed" && r != "truncated" {
			t.Errorf("%q: reason %s (%v)", b, r, err)
		}
	}
}

var colour = regexp.MustCompile(`\^[0-9]`)

// TestDecodeFixtures decodes every real capture, in its order and reversed,
// and asserts GameQ's decoded values. GameQ keeps BF1942's stale entries; the
// spec (§4 rule 4) truncates the list to numplayers.
func TestDecodeFixtures(t *testing.T) {
	reading := gt.Reading{
		Name:    func(s string) string { return colour.ReplaceAllString(s, "") },
		Game:    []string{"gamename"},
		Version: []string{"gamever"},
		Password: func(s string) protocols.Flag {
			return map[string]protocols.Flag{"0": protocols.FlagFalse, "False": protocols.FlagFalse, "1": protocols.FlagTrue, "True": protocols.FlagTrue}[s]
		},
		SkipInfo: func(k string, _ bool) bool { return k == "final" },
		Player:   []string{"player", "playername"},
		Score:    []string{"frags", "score"},
		Teams:    "teamname", TeamBase: 1, // BF1942: team_N is 1-based into teamname_N
		CapRows: true,
	}
	for _, g := range gt.GameQs(t, "gamespy1") {
		t.Run(g.Name, func(t *testing.T) {
			res, err := decode(g.Parts)
			if err != nil {
				t.Fatal(err)
			}
			gt.CheckGameQ(t, res, g.Want, reading)
			rev := slices.Clone(g.Parts)
			slices.Reverse(rev)
			res2, err := decode(rev)
			gt.SameResult(t, "reversed", res, res2, err)
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	parts := readParts(b, "ut_shuffled")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(parts)
		return err
	})
}

// FuzzDecode feeds one reply of one or more datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	var joined [][][]byte
	names, _ := filepath.Glob(filepath.Join("testdata", "*.1.bin"))
	for _, n := range names {
		joined = append(joined, readParts(f, strings.TrimSuffix(filepath.Base(n), ".1.bin")))
	}
	gt.Seeds(f, "gamespy1", []string{"*.bin"}, joined...)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gt.Split(b))
		gt.CheckDecoded(t, res, err, maxPlayers)
	})
}

// TestBotsMeaning: GameSpy 1 replies carry no bot count. Stock Unreal
// Tournament counts and lists its human players only (numplayers is
// GameInfo.NumPlayers, the list its PlayerPawns), so Players is numplayers as
// sent and Bots stays unknown (the vectors' rows pin it for every reply).
func TestBotsMeaning(t *testing.T) {
	res, err := decode(readParts(t, "ut_shuffled"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
}
