package rfactor

import (
	"testing"
	"unicode/utf8"
)

// No real rFactor capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	for _, b := range allVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			return
		}
		res := r.Result()
		for _, s := range []string{res.Name, res.Map, res.Game} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		for _, kv := range res.Info {
			if !utf8.ValidString(kv.Value) {
				t.Fatalf("invalid UTF-8 %s=%q", kv.Key, kv.Value)
			}
		}
	})
}
