package quake3

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// captures in ../shared when present.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	if s := prototest.SharedDir(); s != "" {
		fx, _ := filepath.Glob(filepath.Join(s, "fixtures", "quake3", "*.bin"))
		rw, _ := filepath.Glob(filepath.Join(s, "realworld", "captures", "*_q3-*.resp.bin"))
		seeds = append(append(seeds, fx...), rw...)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			if r != nil {
				t.Fatal("reply and error")
			}
			return
		}
		if len(r.Players)+r.Unparsed > idtech.MaxPlayerLines || len(r.Pairs) > idtech.MaxInfoPairs {
			t.Fatalf("caps exceeded: %d players, %d unparsed, %d info", len(r.Players), r.Unparsed, len(r.Pairs))
		}
		checkFuzzReply(t, r)
		res := r.result(true, true)
		for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if res.Players.Known && res.Players.Value < 0 || res.Bots.Known && res.Bots.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.Bots)
		}
	})
}

// checkFuzzReply checks that the decoded pairs and lines are valid UTF-8 and
// within their own bounds.
func checkFuzzReply(t *testing.T, r *reply) {
	t.Helper()
	for _, kv := range r.Pairs {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Fatalf("invalid UTF-8 info %q", kv)
		}
	}
	for _, p := range r.Players {
		if p.NumCount > 3 || !utf8.ValidString(p.Name) || !utf8.ValidString(p.Clean) || len(p.Clean) > len(p.Name) {
			t.Fatalf("bad player %+v", p)
		}
	}
}
