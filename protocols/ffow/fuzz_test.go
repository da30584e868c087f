package ffow

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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
		reason := func(err error) {
			if r := wire.Reason(err); r == "" || r == "other" {
				t.Fatalf("error without a reason: %v", err)
			}
		}
		if in, err := decodeInfo(b); err != nil {
			reason(err)
		} else {
			res := in.result()
			for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
				if !utf8.ValidString(s) {
					t.Fatalf("%q", s)
				}
			}
		}
		if ps, err := decodePlayers(b); err != nil {
			reason(err)
		} else {
			for _, p := range playerList(ps) {
				if !utf8.ValidString(p.Name) || p.Duration < 0 {
					t.Fatalf("%+v", p)
				}
			}
		}
		if rs, err := decodeRules(b); err != nil {
			reason(err)
		} else if len(rs) > 4096 {
			t.Fatalf("%d rules", len(rs))
		}
	})
}
