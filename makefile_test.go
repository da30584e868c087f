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
// each step (vet, the race and plain test sets, the gse_portable tests, the load
// tests) still runs, each test step through scripts/gotest (the skip summary), the
// two sets together name every package once, and make fails at the end.
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
		"run ./scripts/gotest -race -count=1 ", // the race set
		"run ./scripts/gotest -count=1 ",       // the plain set
		"run ./scripts/gotest -race -count=1 -tags gse_portable ./protocols/wire/",
		"run ./scripts/gotest -race -count=1 -p 1 -run ^(TestLoad|TestCrowdOfCallers)$ ./hostile/ .",
		"vet ./...", // chart-test, in charts/
	}
	ok := len(calls) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = calls[i] == want[i] || strings.HasSuffix(want[i], " ") && strings.HasPrefix(calls[i], want[i])
	}
	if !ok {
		t.Fatalf("make test ran\n%s\nwant\n%s\noutput:\n%s", b, strings.Join(want, "\n"), out)
	}
	listed, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]int{}
	for _, c := range calls[1:3] {
		for _, pkg := range strings.Fields(c)[3:] {
			if pkg != "-race" && pkg != "-count=1" {
				tested[pkg]++
			}
		}
	}
	if n := len(strings.Fields(string(listed))); len(tested) != n {
		t.Errorf("the two sets name %d packages, go list ./... %d", len(tested), n)
	}
	for pkg, n := range tested {
		if n != 1 {
			t.Errorf("%s is in both sets", pkg)
		}
	}
	if !strings.Contains(calls[1], " ./collector ") || !strings.Contains(calls[1], " ./web") || strings.Contains(calls[1], " ./protocols/quake3") {
		t.Errorf("the race set is %q: want collector and web in it, the quake3 decoder not", calls[1])
	}
	if !strings.Contains(string(out), "make test: failed: vet race test gse_portable load chart") {
		t.Errorf("make test does not say which steps failed:\n%s", out)
	}
}
