package prototest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// HexVectors runs check, in a subtest named for it, on each hand-built
// testdata/NAME.hex vector (ParseHex's format) with its NAME.expected.json read
// into an E: a vector without an expectation fails.
func HexVectors[E any](t *testing.T, check func(t *testing.T, b []byte, e E)) {
	t.Helper()
	for _, name := range Names(t, ".hex") {
		t.Run(name, func(t *testing.T) {
			check(t, HexFile(t, name+".hex"), ReadJSON[E](t, filepath.Join("testdata", name+".expected.json")))
		})
	}
}

// RefusedAs ends a vector case that may want an error: it reports whether
// reason is set, after failing the test unless err has that reason and says
// text; without a reason, any err fails.
func RefusedAs(t testing.TB, err error, reason, text string) bool {
	t.Helper()
	if reason == "" {
		if err != nil {
			t.Fatal(err)
		}
		return false
	}
	if wire.Reason(err) != reason || !strings.Contains(err.Error(), text) {
		t.Fatalf("err = %v, want %s saying %q", err, reason, text)
	}
	return true
}

// HexVector is what a hex vector's .expected.json says besides what it decodes
// to: what it is, its size as built, or the reason of its error and a text the
// error holds. A package's expectation embeds it.
type HexVector struct {
	Description    string
	Size           int
	Error, Message string
}

// Refused ends a vector case: it reports whether the vector must fail, after
// failing the test unless err has its reason and text; a vector that decodes
// must not fail, and must be of its size.
func (v HexVector) Refused(t testing.TB, b []byte, err error) bool {
	t.Helper()
	if RefusedAs(t, err, v.Error, v.Message) {
		return true
	}
	if v.Size != 0 && len(b) != v.Size {
		t.Fatalf("vector is %d bytes, built as %d", len(b), v.Size)
	}
	return false
}

// SeedHex adds each testdata/*.hex vector whose name starts with one of
// prefixes (all of them without prefixes) to f's seed corpus.
func SeedHex(f *testing.F, prefixes ...string) {
	f.Helper()
	for _, b := range HexFiles(f, prefixes...) {
		f.Add(b)
	}
}
