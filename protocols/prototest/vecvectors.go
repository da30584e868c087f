package prototest

import (
	"path/filepath"
	"testing"
)

// VecVectors is HexVectors for the escaped vectors: it runs check, in a subtest
// named for it, on each hand-built testdata/NAME.vec (ParseVec's format) with
// its NAME.expected.json read into an E; a vector without an expectation fails.
func VecVectors[E any](t *testing.T, check func(t *testing.T, b []byte, e E)) {
	t.Helper()
	for _, name := range Names(t, ".vec") {
		t.Run(name, func(t *testing.T) {
			check(t, VecFile(t, name), ReadJSON[E](t, filepath.Join("testdata", name+".expected.json")))
		})
	}
}
