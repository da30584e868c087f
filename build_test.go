package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestMakeTestRunsEveryStep runs `make test` with a go that fails every command:
// each step still runs, each test step through scripts/gotest (the skip summary),
// the three sets together name every package once, and make fails at the end.
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
	// the gse_portable tests: built once, then run in three shards, its calls may
	// stand anywhere among theirs.
	const (
		waiting      = "run -tags tools ./scripts/gotest -race -count=1 -tags tools ./hostile"
		waitingBuild = "test -race -count=1 -tags tools -run ^$ ./hostile"
		chartVet     = "vet ./..." // chart-test, in charts/, after the shards
	)
	var calls []string
	waited := map[string]int{}
	for _, c := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if c == waiting || c == waitingBuild || c == chartVet {
			waited[c]++
			continue
		}
		calls = append(calls, c)
	}
	if waited[waitingBuild] != 1 || waited[waiting] != 3 || waited[chartVet] != 1 {
		t.Errorf("make test built the waiting set %d times (want once), ran %d shards of it (want 3) and the chart's tests %d times (want once)", waited[waitingBuild], waited[waiting], waited[chartVet])
	}
	want := []string{
		"vet -tags tools ./...",
		"run -tags tools ./scripts/gotest -race -count=1 -tags tools ", // the race set
		"run -tags tools ./scripts/gotest -count=1 -tags tools ",       // the plain set
		"run -tags tools ./scripts/gotest -count=1 ./collector ",       // the race set's !race tests (scripts/testsets.sh norace)
		"run -tags tools ./scripts/gotest -race -count=1 -tags gse_portable ./protocols/wire/ ./protocols/ ./protocols/auto/",
		"run -tags tools ./scripts/gotest -count=1 -tags gse_portable -run ^TestFootprint$ ./web/",
		"run -tags tools ./scripts/gotest -race -count=1 -p 1 -run ^(TestLoad.*|TestCrowdOfCallers)$ ./hostile/ .",
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
	if !strings.Contains(string(out), "make test: failed: vet race test norace gse_portable gse_portable_footprint waiting chart load") {
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

// needTools skips the test unless every tool is installed.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: skipping", tool)
		}
	}
}

// makeVar is a variable of the Makefile as make sees it.
func makeVar(t *testing.T, name string) string {
	t.Helper()
	needTools(t, "make")
	mk := exec.Command("make", "--no-print-directory", "-s", "-f", "Makefile", "-f", "/dev/stdin", "print-var")
	mk.Stdin = strings.NewReader("print-var:\n\t@echo $(" + name + ")\n")
	out, err := mk.Output()
	if err != nil {
		t.Fatalf("make: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestDockerIgnoreKeepsSources: .dockerignore lets in every directory holding a
// package of the binary (the move to collector/ and internal/ had left them out).
func TestDockerIgnoreKeepsSources(t *testing.T) {
	kept := map[string]bool{}
	for _, l := range strings.Split(readFile(t, ".dockerignore"), "\n") {
		if d, ok := strings.CutPrefix(l, "!"); ok {
			kept[strings.TrimSuffix(d, "/")] = true
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}}{{end}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	mod, _ := exec.Command("go", "list", "-m").Output()
	for _, pkg := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, strings.TrimSpace(string(mod))), "/")
		if rel == "" {
			continue // the root's *.go
		}
		top := strings.Split(rel, "/")[0]
		if !kept[top] {
			t.Errorf(".dockerignore leaves out %s/ (package %s): the image cannot build", top, pkg)
		}
	}
}

// TestMakeDockerStamps: `make docker` passes scripts/ldflags.sh's stamps as build
// arguments, each an ARG of the Dockerfile, and tags the image as releases publish it.
func TestMakeDockerStamps(t *testing.T) {
	needTools(t, "make")
	out, err := exec.Command("make", "-n", "docker").Output()
	if err != nil {
		t.Fatalf("make -n docker: %v", err)
	}
	if !strings.Contains(string(out), "scripts/ldflags.sh --build-args") {
		t.Fatalf("make docker passes no stamp: %s", out)
	}
	cmd := exec.Command("sh", "scripts/ldflags.sh", "--build-args")
	cmd.Env = append(os.Environ(), "VERSION=", "REVISION=rev1", "BRANCH=br1", "BUILD_DATE=20261126-16:00:00")
	args, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	dockerfile := readFile(t, "Dockerfile")
	want := map[string]string{"VERSION": buildVersion(t, "rev1"), "REVISION": "rev1", "BRANCH": "br1", "BUILD_DATE": "20261126-16:00:00"}
	f := strings.Fields(string(args))
	if len(f) != 2*len(want) {
		t.Fatalf("build args %q", args)
	}
	for i := 0; i < len(f); i += 2 {
		k, v, _ := strings.Cut(f[i+1], "=")
		if f[i] != "--build-arg" || want[k] != v {
			t.Errorf("build arg %s %s, want %s=%s", f[i], f[i+1], k, want[k])
		}
		if !strings.Contains(dockerfile, "\nARG "+k) {
			t.Errorf("Dockerfile has no ARG %s", k)
		}
	}
	if img := makeVar(t, "IMAGE"); !strings.Contains(string(out), "-t "+img+":") || !strings.HasPrefix(img, "ghcr.io/") {
		t.Errorf("make docker tags %q: want the published name", img)
	}
}

// TestCompose: compose.yml builds the exporter's image under the published name and
// runs Prometheus in the exporter's network (the examples' 127.0.0.1:10115), every
// mounted file present (e2e's TestComposePairing runs what it mounts).
func TestCompose(t *testing.T) {
	b := readFile(t, "compose.yml")
	var c struct {
		Services map[string]struct {
			Image, Build string
			Volumes      []string
			NetworkMode  string `yaml:"network_mode"`
		}
	}
	if err := yaml.Unmarshal([]byte(b), &c); err != nil {
		t.Fatal(err)
	}
	exp, prom := c.Services["gameserver_exporter"], c.Services["prometheus"]
	if exp.Build != "." || !strings.HasPrefix(exp.Image, makeVar(t, "IMAGE")+":") {
		t.Errorf("exporter: build %q image %q, want this directory under the published name", exp.Build, exp.Image)
	}
	if prom.NetworkMode != "service:gameserver_exporter" {
		t.Errorf("prometheus network_mode %q: the examples scrape 127.0.0.1:10115", prom.NetworkMode)
	}
	for _, v := range append(exp.Volumes, prom.Volumes...) {
		if _, err := os.Stat(strings.Split(v, ":")[0]); err != nil {
			t.Errorf("volume %s: %v", v, err)
		}
	}
}

// TestImageTags: the docs and manifests name the published image at the VERSION
// file's version (or the placeholder VERSION).
func TestImageTags(t *testing.T) {
	img := makeVar(t, "IMAGE")
	want := versionFile(t)
	tag := regexp.MustCompile(regexp.QuoteMeta(img) + `:([A-Za-z0-9._${}:-]+)`)
	n := 0
	for file, text := range docFiles(t) {
		for _, m := range tag.FindAllStringSubmatch(text, -1) {
			n++
			if m[1] != want && m[1] != "VERSION" {
				t.Errorf("%s: %s:%s, want the VERSION file's %s", file, img, m[1], want)
			}
		}
	}
	if n == 0 {
		t.Errorf("no doc names the image %s", img)
	}
}
