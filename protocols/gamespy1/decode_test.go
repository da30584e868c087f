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

// TestDecodeVectors runs the vectors of testdata/ (vectors.json says what
// each decodes to), written from the spec; the .hex ones cover paths that
// otherwise only the real captures reach, so that a clone without ../shared
// tests them too.
func TestDecodeVectors(t *testing.T) {
	gt.Vectors(t, func(t *testing.T, v gt.Vector) (*protocols.Result, error) { return decode(readParts(t, v.Name)) })
}

// The order datagrams arrive in never matters, nor does a duplicate.
func TestDecodeAnyOrder(t *testing.T) {
	parts := readParts(t, "ut_shuffled")
	want, err := decode(parts)
	prototest.NoError(t, err)
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
			prototest.NoError(t, err)
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
