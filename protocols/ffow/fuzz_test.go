package ffow

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode: no reply panics a decoder, every error names one reason, and what
// decodes has UTF-8 strings.
func FuzzDecode(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".hex"); ok {
			f.Add(vec(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeInfo(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			prototest.CheckUTF8(t, in.result())
		}
		if ps, err := decodePlayers(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			for _, p := range playerList(ps) {
				if !utf8.ValidString(p.Name) || p.Duration < 0 {
					t.Fatalf("%+v", p)
				}
			}
		}
		if rs, err := decodeRules(b); err != nil {
			prototest.CheckReason(t, err)
		} else if len(rs) > 4096 {
			t.Fatalf("%d rules", len(rs))
		}
	})
}
