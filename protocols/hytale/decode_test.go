package hytale

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestVectors runs the hand-built vectors in testdata/: the counts of the OK
// line, or the error and the server's message it quotes.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[prototest.Expected](t, filepath.Join("testdata", name+".expected.json"))
			st, err := decode(prototest.File(t, name+".bin"))
			prototest.CheckExpected(t, e, &protocols.Result{Players: protocols.Known(st.Players), MaxPlayers: protocols.Known(st.MaxPlayers)}, err)
		})
	}
}

// A hostile message is quoted, never printed raw into logs.
func TestDecodeErrorQuoted(t *testing.T) {
	_, err := decode([]byte("ERROR \x1b[31mred\xff\n"))
	// Byte-wise: ContainsAny would read "\xff" as U+FFFD, not as the raw byte.
	if msg := err.Error(); !errors.Is(err, wire.ErrServer) || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\xff") {
		t.Errorf("err = %q", err)
	}
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, []byte("OK 12 100\r\n"), func(line []byte) error {
		_, err := decode(line)
		return err
	})
}

// FuzzDecode checks that no reply panics the decoder, that every error names
// one reason, and that counts are never negative.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.bin")
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(b)
		if err != nil {
			prototest.CheckReason(t, err)
			if st != (status{}) {
				t.Fatalf("status %+v with error %v", st, err)
			}
			return
		}
		if st.Players < 0 || st.MaxPlayers < 0 {
			t.Fatalf("negative counts %+v", st)
		}
	})
}
