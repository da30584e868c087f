package cs2d

import (
	"testing"
	"unicode/utf8"
)

// No real CS2D capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	for _, b := range allVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			return
		}
		res := r.Result(true, true)
		for _, s := range []string{res.Name, res.Map, res.Game} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if len(res.PlayerList) > 255 {
			t.Fatalf("%d players from a count byte", len(res.PlayerList))
		}
		if res.Players.Value < 0 || res.Bots.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.Bots)
		}
		for _, p := range res.PlayerList {
			if !utf8.ValidString(p.Name) {
				t.Fatalf("player name %q", p.Name)
			}
		}
	})
}
