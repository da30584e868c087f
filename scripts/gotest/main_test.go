//go:build tools

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestReport reads a `go test -json` stream of two packages: one passing with two
// skips (one reason twice), one failing.
func TestReport(t *testing.T) {
	stream, err := os.ReadFile("testdata/two-packages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	skips := report(bytes.NewReader(stream), &out)
	got := out.String()
	// go test's closing lines, which CI parses, stay as go test prints them.
	prototest.WantAll(t, got, "ok  \tex/a\t0.01s\n", "FAIL\tex/b\t0.02s\n", "broken_test.go:7: got 1, want 2\n", "--- FAIL: TestBroken")
	for _, not := range []string{"chatter of a passing test", "PASS\n", "=== RUN"} {
		if strings.Contains(got, not) {
			t.Errorf("output has %q (go test without -v drops it):\n%s", not, got)
		}
	}
	want := "skipped 2 tests:\nskip: TestPodmanImage (ex/a): podman not installed: skipping\nskip: TestQstat (ex/a): podman not installed: skipping"
	if lines := skipLines(skips); lines != want {
		t.Errorf("summary %q, want %q", lines, want)
	}
	if lines := skipLines(nil); lines != "" {
		t.Errorf("no skips: summary %q, want none", lines)
	}
}

// TestSkipLinesDeduplicated: a test skipped twice (-count=2, a package tested in
// two steps) is one line; the subtests a skipped test's reason skipped too are
// not repeated; others are their own line.
func TestSkipLinesDeduplicated(t *testing.T) {
	skips := []skip{
		{"ex/b", "TestReal", "prometheus is not installed"},
		{"ex/a", "TestQstat", "qstat is not installed"},
		{"ex/b", "TestReal", "prometheus is not installed"},
		{"ex/b", "TestReal/openarena", "prometheus is not installed"},
		{"ex/b", "TestGames/teeworlds", "teeworlds-server is not installed"},
		{"ex/b", "TestGames/teeworlds", "teeworlds-server is not installed"},
	}
	want := `skipped 3 tests:
skip: TestQstat (ex/a): qstat is not installed
skip: TestGames/teeworlds (ex/b): teeworlds-server is not installed
skip: TestReal (ex/b): prometheus is not installed`
	if got := skipLines(skips); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
