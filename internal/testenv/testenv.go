// Package testenv holds what tests across the module share about their
// environment.
package testenv

import (
	"os"
	"testing"
)

// LoadTest skips t unless GSE_LOAD_TESTS is set. A load test takes both cores for
// seconds and judges deadlines or peak memory under that load, so `make test` runs
// the load tests apart, after every other test binary has finished, one package at
// a time: beside parallel -race builds the garbage collector falls behind and the
// scheduler withholds time, and a bound that holds on the exporter's own CPU fails.
func LoadTest(t testing.TB) {
	t.Helper()
	if os.Getenv("GSE_LOAD_TESTS") == "" {
		t.Skip("a load test: GSE_LOAD_TESTS=1 runs it (make test does, after the other tests)")
	}
}
