package hexen2

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real Hexen II capture is committed: the seeds are the own vectors. Each input
// goes through the three reply decoders the querier uses.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if body, skip, err := answer(b, repServerInfo); skip == nil && err == nil {
			if s, err := decodeServerInfo(body); err == nil {
				res := s.result()
				for _, v := range []string{res.Name, res.Map, res.Version} {
					if !utf8.ValidString(v) {
						t.Fatalf("invalid UTF-8 %q", v)
					}
				}
			}
		}
		if _, skip, err := answer(b, repPlayerInfo); skip == nil && err == nil {
			c := bytes.Clone(b)
			if p, err := decodePlayer(c); err == nil && !utf8.ValidString(p.result().Name) {
				t.Fatalf("invalid UTF-8 player %q", p.Name)
			}
			if len(c) != len(b) {
				t.Fatalf("the address blanking resized the datagram")
			}
		}
		if body, skip, err := answer(b, repRuleInfo); skip == nil && err == nil {
			if kv, ok, err := decodeRule(body); err == nil && ok && (!utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value)) {
				t.Fatalf("invalid UTF-8 rule %q", kv)
			}
		}
	})
}
