package main

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

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

// TestDockerIgnoreKeepsSources: every directory of the repository holding a package
// the binary is built from is in the container build context (.dockerignore lets it
// through): the layout move to collector/ and internal/ had left them out.
func TestDockerIgnoreKeepsSources(t *testing.T) {
	f, err := os.Open(".dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kept := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "!"); ok {
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

// TestMakeDockerStamps: `make docker` passes the values scripts/ldflags.sh stamps
// `make build` with as build arguments, each one an ARG of the Dockerfile, and tags
// the image with the name releases publish.
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
	dockerfile, _ := os.ReadFile("Dockerfile")
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
		if !strings.Contains(string(dockerfile), "\nARG "+k) {
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
	b, err := os.ReadFile("compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Services map[string]struct {
			Image, Build string
			Volumes      []string
			NetworkMode  string `yaml:"network_mode"`
		}
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
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
// file's version (or the placeholder VERSION), so a release that bumps one bumps all.
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
