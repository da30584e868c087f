package idtechtest

import (
	"os"
	"path/filepath"
	"testing"

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

// CheckCaps fails when a decoded reply keeps more player lines (parsed and
// unparsed) or info pairs than the family's caps allow.
func CheckCaps(t testing.TB, players, unparsed, pairs int) {
	t.Helper()
	if players+unparsed > idtech.MaxPlayerLines || pairs > idtech.MaxInfoPairs {
		t.Fatalf("caps exceeded: %d players, %d unparsed, %d info", players, unparsed, pairs)
	}
}

// Fuzz fuzzes decode with fuzzSeeds' seeds: no datagram may panic it or get
// both a reply and an error, and check must hold on every reply.
func Fuzz[T any](f *testing.F, decode func([]byte) (*T, error), check func(t *testing.T, r *T), sharedGlobs ...string) {
	fuzzSeeds(f, sharedGlobs...)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			if r != nil {
				t.Fatal("reply and error")
			}
			return
		}
		check(t, r)
	})
}
