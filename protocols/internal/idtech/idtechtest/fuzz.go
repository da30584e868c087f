package idtechtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fuzzSeeds are testdata/*.bin and, when ../shared is present, the files
// matching each glob under it (e.g. "realworld/captures/nexuiz_*.resp.bin").
func fuzzSeeds(f *testing.F, sharedGlobs ...string) [][]byte {
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
	out := make([][]byte, len(seeds))
	for i, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// Fuzz fuzzes decode with fuzzSeeds' seeds: no datagram may panic it or get
// both a reply and an error; a reply keeps no more player lines (parsed and
// unparsed) and info pairs, as Kept counts them, than the family's caps; and
// the Result that result builds (checking what else its protocol promises)
// passes prototest.FuzzResults (valid UTF-8, no negative count).
func Fuzz[T any](f *testing.F, decode func([]byte) (*T, error), result func(t *testing.T, r *T) *protocols.Result, sharedGlobs ...string) {
	prototest.FuzzResults(f, fuzzSeeds(f, sharedGlobs...), func(t *testing.T, b []byte) *protocols.Result {
		r, err := decode(b)
		if err != nil {
			if r != nil {
				t.Fatal("reply and error")
			}
			return nil
		}
		if lines, pairs := Kept(r); lines > idtech.MaxPlayerLines || pairs > idtech.MaxInfoPairs {
			t.Fatalf("caps exceeded: %d player lines, %d info pairs", lines, pairs)
		}
		return result(t, r)
	})
}
