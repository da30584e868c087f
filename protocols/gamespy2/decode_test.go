package gamespy2

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vector reads testdata/<name>.bin, or <name>.info.bin then <name>.players.bin.
func vector(t testing.TB, name string) [][]byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return [][]byte{b}
	}
	var out [][]byte
	for _, part := range []string{"info", "players"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+"."+part+".bin"))
		prototest.NoError(t, err)
		out = append(out, b)
	}
	return out
}

// TestDecodeVectors runs the hand-built vectors of testdata/, written from the
// spec (vectors.json says what each decodes to).
func TestDecodeVectors(t *testing.T) {
	gt.Vectors(t, func(t *testing.T, v gt.Vector) (*protocols.Result, error) { return decode(vector(t, v.Name)...) })
}

func TestDecodeReplyShort(t *testing.T) {
	for _, b := range []string{"", "\x00", "\x00COR"} {
		if _, err := decodeReply([]byte(b)); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// TestDecodeFixtures decodes every real capture (the info reply and the player/team
// reply of each server) and asserts GameQ's decoded values.
func TestDecodeFixtures(t *testing.T) {
	reading := gt.Reading{
		Name: gameq, Value: gameq, Game: []string{"gamename", "gametype"}, Version: []string{"gamever"},
		Password: func(s string) protocols.Flag {
			return map[string]protocols.Flag{"0": protocols.FlagFalse, "1": protocols.FlagTrue}[s]
		},
		Score: []string{"score"}, Teams: "teamt", // team_ is 0-based into the team table
	}
	for _, g := range gt.GameQs(t, "gamespy2") {
		t.Run(g.Name, func(t *testing.T) {
			res, err := decode(g.Parts...)
			prototest.NoError(t, err)
			gt.CheckGameQ(t, res, g.Want, reading)
		})
	}
}

// gameq turns GameQ's reading of a string (its bytes as Latin-1) into ours: the
// servers are Windows games writing Windows-1252, whose 0x80-0x9F are marks
// (0x99 is ™), where Latin-1 has control characters.
func gameq(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return s // not a Latin-1 reading
		}
		b = append(b, byte(r))
	}
	return wire.Windows1252(b)
}

// TestBotsMeaning: GameSpy 2 replies carry no bot count or flag: Players is
// numplayers as sent, else the rows; Bots stays unknown (the vectors' rows pin
// the same for every reply: none is marked).
func TestBotsMeaning(t *testing.T) {
	res, err := decode(vector(t, "aa_no_count")...)
	prototest.NoError(t, err)
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}

// FuzzDecode feeds one or more reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	gt.Seeds(f, "gamespy2", []string{"*.bin"}, vector(f, "halo_like"), vector(f, "aa_no_count"), vector(f, "empty_tables"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gt.Split(b)...)
		gt.CheckDecoded(t, res, err, maxRows)
	})
}

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "halo_like")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}
