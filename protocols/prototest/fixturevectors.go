package prototest

import (
	"path/filepath"
	"strings"
	"testing"
)

// FixtureVectors is HexVectors for the real captures: it runs check, in a
// subtest named for it, on each ../shared/fixtures/PROTO/NAME.expected.json read
// into an E (check reads the capture it names with Fixture). It skips as
// FixtureDir does; a fixture directory without an expectation fails.
func FixtureVectors[E any](t *testing.T, proto string, check func(t *testing.T, name string, e E)) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(FixtureDir(t, proto), "*.expected.json"))
	if len(files) == 0 {
		t.Fatalf("no %s fixtures", proto)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		t.Run(name, func(t *testing.T) { check(t, name, ReadJSON[E](t, f)) })
	}
}
