package hytale

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode checks that no reply panics the decoder, that every error names
// one reason, and that counts are never negative.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(b)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
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
