package prototest

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// VecVectors is HexVectors for the escaped vectors: it runs check, in a subtest
// named for it, on each hand-built testdata/NAME.vec (ParseVec's format, read by
// AllVecs) with its NAME.expected.json read into an E; a vector without an
// expectation fails.
func VecVectors[E any](t *testing.T, check func(t *testing.T, b []byte, e E)) {
	t.Helper()
	vecs := AllVecs(t)
	for _, name := range slices.Sorted(maps.Keys(vecs)) {
		t.Run(name, func(t *testing.T) {
			check(t, vecs[name], ReadJSON[E](t, filepath.Join("testdata", name+".expected.json")))
		})
	}
}
