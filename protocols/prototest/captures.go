package prototest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Capture reads ../shared/realworld/captures/<name>, a datagram recorded from a
// real local server by shared/realworld/capture.sh, skipping the test when the
// shared tree or the file is absent (the own vectors in testdata/ still run).
func Capture(t testing.TB, name string) []byte {
	t.Helper()
	s := SharedDir()
	if s == "" {
		t.Skip("../shared is absent: skipping the real-server captures (own vectors in testdata/ still run)")
	}
	b, err := os.ReadFile(filepath.Join(s, "realworld", "captures", name))
	if err != nil {
		t.Skipf("no capture %s: %v", name, err)
	}
	return b
}

// Captures returns the real-server captures whose names match glob, none
// without the shared tree: fuzz seeds that must not skip the fuzz target.
func Captures(glob string) [][]byte {
	s := SharedDir()
	if s == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(s, "realworld", "captures", glob))
	var out [][]byte
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// HexFiles returns every testdata/*.hex vector whose name starts with one of
// prefixes (all of them without prefixes), decoded: fuzz seeds, benchmarks.
func HexFiles(t testing.TB, prefixes ...string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	var out [][]byte
	for _, p := range files {
		name := filepath.Base(p)
		if len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			out = append(out, HexFile(t, name))
		}
	}
	return out
}
