package idtechtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fuzzSeeds adds testdata/*.bin and, when ../shared is present, the files
// matching each glob under it (e.g. "realworld/captures/nexuiz_*.resp.bin").
func fuzzSeeds(f *testing.F, sharedGlobs ...string) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	if s := prototest.SharedDir(); s != "" {
		for _, g := range sharedGlobs {
			m, _ := filepath.Glob(filepath.Join(s, g))
			seeds = append(seeds, m...)
		}
	}
	if len(seeds) == 0 {
		f.Fatal("no fuzz seeds in testdata/")
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// Fuzz fuzzes decode with fuzzSeeds' seeds: no datagram may panic it or get
// both a reply and an error; a reply keeps no more player lines (parsed and
// unparsed) and info pairs, as kept counts them, than the family's caps; and
// the Result that result builds (checking what else its protocol promises)
// is valid UTF-8, with no negative count.
func Fuzz[T any](f *testing.F, decode func([]byte) (*T, error), kept func(*T) (lines, pairs int),
	result func(t *testing.T, r *T) *protocols.Result, sharedGlobs ...string) {
	fuzzSeeds(f, sharedGlobs...)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			if r != nil {
				t.Fatal("reply and error")
			}
			return
		}
		if lines, pairs := kept(r); lines > idtech.MaxPlayerLines || pairs > idtech.MaxInfoPairs {
			t.Fatalf("caps exceeded: %d player lines, %d info pairs", lines, pairs)
		}
		res := result(t, r)
		prototest.CheckUTF8(t, res)
		if res.Players.Known && res.Players.Value < 0 || res.Bots.Known && res.Bots.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.Bots)
		}
	})
}
