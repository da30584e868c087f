package rfactor

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecode decodes each own vector, testdata/NAME.vec (escaped hex built
// from gamedig's reader, prototest.ParseVec), as its NAME.expected.json says:
// the error's reason, or the Result's ProbeLine and info values. The reply
// counts human players and AI drivers in two bytes: Players is the humans, Bots
// the AI; there is no player list.
func TestDecode(t *testing.T) {
	if n := len(prototest.VecFile(t, "no_vehicles")); n != fixedLen {
		t.Fatalf("the fixed part is %d bytes in the vector, %d in the decoder", n, fixedLen)
	}
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line string
		Info map[string]string
	}) {
		r, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		prototest.CheckProbe(t, r.Result(), nil, nil, w.Line)
		prototest.CheckInfoHas(t, r.Result(), w.Info)
	})
}

func TestAnswers(t *testing.T) {
	full := prototest.VecFile(t, "full")
	prototest.NoError(t, answers(full))
	noNUL := append([]byte(nil), full...)
	copy(noNUL[nameOffset:], "0123456789012345678901234567")
	badName := append([]byte(nil), full...)
	badName[0] = 0x01
	if full[maxOffset] != 20 {
		t.Fatalf("maxOffset %d holds %d, not the vector's max players", maxOffset, full[maxOffset])
	}
	zeros := append([]byte("JUNK"), make([]byte, fixedLen)...)
	for name, b := range map[string][]byte{"server name without NUL": noNUL, "zeros": zeros, "unprintable game name": badName, "empty game name": append([]byte{0}, full[1:]...)} {
		if err := answers(b); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestDecodeWindows1252: rFactor is a Windows game: a server name that is not
// UTF-8 is Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	b := prototest.VecFile(t, "full")
	old := append([]byte("Sunday Cup"), make([]byte, len(prototest.Marks1252)-len("Sunday Cup"))...)
	if !bytes.Contains(b, old) {
		t.Fatal("no server name to replace")
	}
	r, err := decode(bytes.Replace(b, old, prototest.Marks1252, 1))
	prototest.NoError(t, err)
	if res := r.Result(); res.Name != prototest.Marks1252Text {
		t.Errorf("name %q, want %q", res.Name, prototest.Marks1252Text)
	}
}

// No real rFactor capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 0, decoded) }

// decoded is decode and the Result it leads to.
var decoded = prototest.Decoded(decode, (*reply).Result)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "full"), decoded.Err)
}
