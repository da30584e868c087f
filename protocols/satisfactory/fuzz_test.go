package satisfactory

import (
	"encoding/binary"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		resp, err := decode(b)
		_ = answers(b, 0)
		if err != nil {
			return
		}
		if n := len(resp.SubStates); !resp.Legacy {
			nameLen := int(binary.LittleEndian.Uint16(b[26+3*n:]))
			if len(b) != 29+3*n+nameLen+resp.Trailing {
				t.Fatalf("length %d does not add up: %+v", len(b), resp)
			}
		}
		res := resp.Result()
		seen := map[string]bool{}
		for _, s := range res.SubStates {
			if seen[s.Name] {
				t.Fatalf("duplicate sub-state %s", s.Name)
			}
			seen[s.Name] = true
		}
		for _, s := range []string{res.Name, res.Version, res.State} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
	})
}
