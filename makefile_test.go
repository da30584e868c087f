package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMakeTestRunsEveryStep runs `make test` with a go that fails every command:
// each step (vet, the tests, the gse_portable tests, the load tests) still runs,
// each test step through scripts/gotest (the skip summary), and make fails at the end.
func TestMakeTestRunsEveryStep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Makefile needs a POSIX shell")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed: skipping")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "go")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >>"+log+"\nexit 1\n"), 0o755)
	out, err := exec.Command("make", "--no-print-directory", "test", "GO="+fake, "TEST_DEBS=").CombinedOutput()
	if err == nil {
		t.Fatalf("make test passed with every go command failing:\n%s", out)
	}
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{
		"vet ./...",
		"run ./scripts/gotest -race -count=1 ./...",
		"run ./scripts/gotest -race -count=1 -tags gse_portable ./protocols/wire/",
		"run ./scripts/gotest -race -count=1 -p 1 -run ^TestLoad$ ./hostile/",
		"vet ./...", // chart-test, in charts/
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("make test ran\n%s\nwant\n%s\noutput:\n%s", b, strings.Join(want, "\n"), out)
	}
	if !strings.Contains(string(out), "make test: failed: vet test gse_portable load chart") {
		t.Errorf("make test does not say which steps failed:\n%s", out)
	}
}
