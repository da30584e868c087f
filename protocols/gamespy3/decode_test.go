package gamespy3

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// vector reads testdata/<name>.bin or its parts <name>.partN.bin in order, or
// the annotated <name>.vec or <name>.partN.vec.
func vector(t testing.TB, name string) [][]byte {
	t.Helper()
	for _, ext := range []string{".bin", ".vec"} {
		files, _ := filepath.Glob(filepath.Join("testdata", name+".part*"+ext))
		if _, err := os.Stat(filepath.Join("testdata", name+ext)); err == nil {
			files = []string{filepath.Join("testdata", name+ext)}
		}
		var out [][]byte
		for _, f := range files {
			if ext == ".vec" {
				out = append(out, prototest.VecFile(t, strings.TrimSuffix(filepath.Base(f), ext)))
				continue
			}
			b, err := os.ReadFile(f)
			prototest.NoError(t, err)
			out = append(out, b)
		}
		if out != nil {
			return out
		}
	}
	t.Fatalf("no vector %s", name)
	return nil
}

// TestDecodeVectors runs the vectors of testdata/, written from the spec
// (vectors.json says what each decodes to); the annotated .vec ones cover
// paths that otherwise only the real captures reach, so that a clone without
// ../shared tests them too. Arrival order does not matter.
func TestDecodeVectors(t *testing.T) {
	gt.Vectors(t, func(t *testing.T, v gt.Vector) (*protocols.Result, error) {
		parts := vector(t, v.Name)
		if v.Decoder == "jc2mp" {
			return decodeJC2MP(parts[0])
		}
		res, err := decode(parts...)
		if err == nil && len(parts) > 1 {
			rev := slices.Clone(parts)
			slices.Reverse(rev)
			res2, err := decode(rev...)
			gt.SameResult(t, "reversed", res, res2, err)
		}
		return res, err
	})
}

// TestDecodeFixtures decodes every GameSpy v3 capture (BF2, PR:BF2, Crysis, Crysis
// Wars, UT3, JC2-MP), reversed and with a duplicate, and asserts GameQ's values.
func TestDecodeFixtures(t *testing.T) {
	// The Minecraft and mcstatus captures belong to package gamespy4.
	for _, g := range gt.GameQs(t, "gamespy3", "minecraft_", "pocketmine_", "mcstatus_") {
		t.Run(g.Name, func(t *testing.T) {
			// GameQ adds constants of its own for JC2-MP (mapname "Panau",
			// dedicated) and renames UT3's settings (p1073741825 → mapname, s32779
			// → gamemode, ..., password from a flag): there only the keys sent as
			// such are compared.
			jc2, ut3 := strings.HasPrefix(g.Name, "jc2mp"), strings.HasPrefix(g.Name, "ut3")
			reading := gt.Reading{
				Game: []string{"gamename", "gametype"}, Version: []string{"gamever", "version"},
				Password: func(s string) protocols.Flag { return gamespy.ParseFlag([]byte(s)) },
				SkipInfo: func(k string, sent bool) bool {
					return (ut3 || jc2) && (!sent || k == "gamemode" || k == "mapname")
				},
				Score: []string{"score", "kills"}, // kills: Crysis Wars
				Teams: "team", TeamBase: 1, Bot: true,
			}
			var res *protocols.Result
			var err error
			if jc2 {
				reading.Map = "-"
				jc2Rows(g.Want)
				res, err = decodeJC2MP(g.Parts[0])
			} else {
				rev := append(slices.Clone(g.Parts), g.Parts[0])
				slices.Reverse(rev)
				res, err = decode(rev...)
			}
			prototest.NoError(t, err)
			if _, sent := gt.Info(res, "password"); ut3 && !sent {
				reading.Password = nil
			}
			gt.CheckGameQ(t, res, g.Want, reading)
		})
	}
}

// jc2Rows turns GameQ's JC2-MP rows into its GameSpy rows. GameQ reads the
// player count as one byte after two NULs, so its first name starts with the
// count's low byte: the decoder reads the u16 count of spec §7 instead.
func jc2Rows(want map[string]any) {
	players, _ := want["players"].([]any)
	for i, p := range players {
		w := p.(map[string]any)
		name := gt.Str(w, "name")
		if i == 0 && len(name) > 0 && int(name[0]) == len(players) {
			name = name[1:]
		}
		ping, _ := w["ping"].(float64)
		players[i] = map[string]any{"player": name, "ping": strconv.Itoa(int(ping))}
	}
}

// TestBotsMeaning: Battlefield 2 flags bots in the player table's AIBot_
// column and counts them in numplayers, so Players counts the humans when the
// whole table came; other games (no column, the vectors' many_columns) and cut
// replies (missing_middle) leave the bots unknown and numplayers as sent.
func TestBotsMeaning(t *testing.T) {
	res, err := decode(vector(t, "split3")...)
	prototest.NoError(t, err)
	prototest.CheckBots(t, res, 2, 1, true) // numplayers 3, Charlie flagged
}

// FuzzDecode feeds one or more stat reply datagrams to the decoder, and the
// first to the Just Cause 2 MP decoder.
func FuzzDecode(f *testing.F) {
	gt.Seeds(f, "gamespy3", []string{"*.bin"}, vector(f, "split3"), vector(f, "missing_middle"), vector(f, "two_last"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parts := gt.Split(b)
		res, err := decode(parts...)
		gt.CheckDecoded(t, res, err, maxRows)
		res, err = decodeJC2MP(parts[0])
		gt.CheckDecoded(t, res, err, min(maxRows, maxJC2Players))
	})
}

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "split3")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}

// BenchmarkDecodeFixture decodes the 3-packet, 54-player Battlefield 2 capture.
func BenchmarkDecodeFixture(b *testing.B) {
	var v [][]byte
	for _, name := range []string{"bf2_full_1.part1.bin", "bf2_full_1.part2.bin", "bf2_full_1.part3.bin"} {
		v = append(v, prototest.Fixture(b, "gamespy3", name))
	}
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}

func BenchmarkDecodeJC2MP(b *testing.B) {
	prototest.DecodeBench(b, vector(b, "jc2mp")[0], func(v []byte) error {
		_, err := decodeJC2MP(v)
		return err
	})
}
