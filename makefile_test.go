package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestMakeTestRunsEveryStep runs `make test` with a go that fails every command:
// each step (vet, the race, plain and waiting test sets, the gse_portable tests,
// the load tests) still runs, each test step through scripts/gotest (the skip
// summary), the three sets together name every package once, and make fails at
// the end.
func TestMakeTestRunsEveryStep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Makefile needs a POSIX shell")
	}
	needTools(t, "make")
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "go")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >>"+log+"\nexit 1\n"), 0o755)
	out, err := exec.Command("make", "--no-print-directory", "test", "GO="+fake, "TEST_DEBS=").CombinedOutput()
	if err == nil {
		t.Fatalf("make test passed with every go command failing:\n%s", out)
	}
	b, _ := os.ReadFile(log)
	// The waiting set runs in the background, beside the steps from the race set to
	// the gse_portable tests: its call may stand anywhere among theirs.
	const waiting = "run -tags tools ./scripts/gotest -race -count=1 -tags tools ./hostile"
	var calls []string
	waited := 0
	for _, c := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if c == waiting {
			waited++
			continue
		}
		calls = append(calls, c)
	}
	if waited != 1 {
		t.Errorf("make test ran the waiting set (%s) %d times, want once", waiting, waited)
	}
	want := []string{
		"vet -tags tools ./...",
		"run -tags tools ./scripts/gotest -race -count=1 -tags tools ", // the race set
		"run -tags tools ./scripts/gotest -count=1 -tags tools ",       // the plain set
		"run -tags tools ./scripts/gotest -count=1 ./collector ",       // the race set's !race tests (scripts/testsets.sh norace)
		"run -tags tools ./scripts/gotest -race -count=1 -tags gse_portable ./protocols/wire/",
		"run -tags tools ./scripts/gotest -race -count=1 -p 1 -run ^(TestLoad.*|TestCrowdOfCallers)$ ./hostile/ .",
		"vet ./...", // chart-test, in charts/
	}
	ok := len(calls) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = calls[i] == want[i] || strings.HasSuffix(want[i], " ") && strings.HasPrefix(calls[i], want[i])
	}
	if !ok {
		t.Fatalf("make test ran\n%s\nwant\n%s\noutput:\n%s", b, strings.Join(want, "\n"), out)
	}
	listed, err := exec.Command("go", "list", "-tags", "tools", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]int{}
	for _, c := range append(calls[1:3], waiting) {
		for _, pkg := range strings.Fields(c)[4:] { // after "run -tags tools ./scripts/gotest"
			if !strings.HasPrefix(pkg, "-") && pkg != "tools" {
				tested[pkg]++
			}
		}
	}
	if n := len(strings.Fields(string(listed))); len(tested) != n {
		t.Errorf("the three sets name %d packages, go list ./... %d", len(tested), n)
	}
	for pkg, n := range tested {
		if n != 1 {
			t.Errorf("%s is in two sets", pkg)
		}
	}
	if !strings.Contains(calls[1], " ./collector ") || !strings.Contains(calls[1], " ./web") || strings.Contains(calls[1], " ./protocols/quake3") {
		t.Errorf("the race set is %q: want collector and web in it, the quake3 decoder not", calls[1])
	}
	if !strings.Contains(string(out), "make test: failed: vet race test norace gse_portable waiting load chart") {
		t.Errorf("make test does not say which steps failed:\n%s", out)
	}
}

// TestInstallsExporterOnly: `go install ./...` builds one command, the exporter;
// the bench tools and scripts/gotest build with -tags tools (and then do), and
// every script, doc or Makefile line that builds or runs one passes the tag.
func TestInstallsExporterOnly(t *testing.T) {
	mains := func(tags ...string) []string {
		t.Helper()
		args := append(append([]string{"list"}, tags...), "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
		return strings.Fields(string(out))
	}
	const mod = "github.com/gameserver-exporter/gameserver_exporter"
	if got := mains(); strings.Join(got, " ") != mod {
		t.Errorf("go install ./... would install %v, want %s alone", got, mod)
	}
	tools := []string{mod, mod + "/bench/abuse", mod + "/bench/fakefleet", mod + "/bench/floorprobe", mod + "/bench/inflight", mod + "/scripts/gotest"}
	if got := mains("-tags", "tools"); strings.Join(got, " ") != strings.Join(tools, " ") {
		t.Errorf("with -tags tools: %v, want %v", got, tools)
	}

	files, _ := filepath.Glob("bench/*.sh")
	files = append(files, "Makefile", ".ci/run", "bench/README.md", "BENCHMARKS.md", "README.md", "CONTRIBUTING.md")
	use := regexp.MustCompile(`\bgo (build|run|test|vet|install)\b[^\n]*?(\./(bench/)?(abuse|fakefleet|floorprobe|inflight)\b|\./scripts/gotest\b)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a file another change removed
		}
		// The Makefile says it once, in TOOLS_TAGS.
		text := strings.ReplaceAll(string(b), "$(TOOLS_TAGS)", "-tags tools")
		text = strings.ReplaceAll(text, "$(GO)", "go")
		for _, line := range strings.Split(text, "\n") {
			for _, cmd := range regexp.MustCompile(`&&|;|\|\|`).Split(line, -1) {
				if use.MatchString(cmd) && !strings.Contains(cmd, "-tags tools") {
					t.Errorf("%s: %q builds a tool without -tags tools", f, strings.TrimSpace(cmd))
				}
			}
		}
	}
}
