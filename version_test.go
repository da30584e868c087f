package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func versionFile(t *testing.T) string {
	t.Helper()
	b := readFile(t, "VERSION")
	v := strings.TrimSpace(b)
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(v) {
		t.Fatalf("VERSION %q is not a semantic version", v)
	}
	return v
}

// buildVersion is the version a build of this checkout at revision rev names
// itself: the VERSION file's when CHANGELOG.md's newest section is that release,
// else VERSION+unreleased.REV (scripts/version.sh, internal/buildinfo).
func buildVersion(t *testing.T, rev string) string {
	t.Helper()
	v := versionFile(t)
	b := readFile(t, "CHANGELOG.md")
	if m := regexp.MustCompile(`(?m)^## (\S+)`).FindStringSubmatch(b); m != nil && m[1] == v {
		return v
	}
	if rev == "" {
		return v + "+unreleased"
	}
	return v + "+unreleased." + rev[:min(12, len(rev))]
}

// changelogScript runs scripts/script on a CHANGELOG.md holding changelog, with env.
func changelogScript(t *testing.T, script, changelog string, env ...string) (string, error) {
	f := writeFile(t, filepath.Join(t.TempDir(), "CHANGELOG.md"), changelog)
	cmd := exec.Command("sh", "scripts/"+script, f)
	cmd.Env = append(append(os.Environ(), "CHANGELOG="+f, "VERSION=", "SNAPSHOT=", "REVISION=0123456789abcdef"), env...)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// TestVersionScripts: a tree is the VERSION file's release only when CHANGELOG.md's
// newest section is it, else VERSION+unreleased.REV (SNAPSHOT=1: always); a release
// is cut only as the VERSION file's version, and only when the changelog names it.
func TestVersionScripts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("scripts/version.sh and release-check.sh are shell scripts")
	}
	v := versionFile(t)
	released, unreleased := "# Changelog\n\n## "+v+" - 2026-11-26\n\n- a change\n", "# Changelog\n\n## Unreleased\n\n- a change\n\n## "+v+"\n"
	for _, c := range []struct {
		script, changelog, env, want string
		ok                           bool // the script prints want and succeeds
	}{
		{"version.sh", released, "REVISION=0123456789abcdef", v, true},
		{"version.sh", released, "SNAPSHOT=1", v + "+unreleased.0123456789ab", true},
		{"version.sh", unreleased, "REVISION=0123456789abcdef", v + "+unreleased.0123456789ab", true},
		{"version.sh", unreleased, "REVISION=unknown", v + "+unreleased", true},
		{"version.sh", "# Changelog\n\n## 0.0.1\n", "REVISION=0123456789abcdef", v + "+unreleased.0123456789ab", true},
		{"release-check.sh", released + "\n## 0.0.1\n", "VERSION=", v, true},
		{"release-check.sh", unreleased, "VERSION=", v, false},
		{"release-check.sh", "# Changelog\n\n## 0.0.1\n", "VERSION=", v, false},
		{"release-check.sh", "# Changelog\n\n## " + v + "\n", "VERSION=9.9.9", v, false}, // a version from elsewhere than the file
	} {
		if got, err := changelogScript(t, c.script, c.changelog, c.env); (err == nil && got == c.want) != c.ok {
			t.Errorf("%s, changelog %q, %s: %q %v, want %q (ok %v)", c.script, c.changelog, c.env, got, err, c.want, c.ok)
		}
	}
}

// checkVersion checks that bin's --version output matches versionRE, and that
// the build_info metric and the landing page of bin running carry version.
func checkVersion(t *testing.T, bin, versionRE, version string, labels ...string) {
	t.Helper()
	if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil || !regexp.MustCompile(versionRE).Match(out) {
		t.Errorf("--version: %v\n%s\nwant %s", err, out, versionRE)
	}
	e := testenv.StartExporter(t, bin)
	_, body := e.Get(t, "/metrics")
	info := regexp.MustCompile(`(?m)^gameserver_exporter_build_info\{.*\} 1$`).FindString(body)
	for _, l := range append(labels, `version="`+version) {
		if !strings.Contains(info, l) {
			t.Errorf("build_info %q, want %s", info, l)
		}
	}
	_, body = e.Get(t, "/")
	if !strings.Contains(strings.ReplaceAll(body, "&#43;", "+"), "version "+version) { // html/template escapes the "+" of unreleased
		t.Errorf("landing page does not say version %s", version)
	}
}

// TestVersionReported: --version, build_info and the landing page carry the version
// scripts/version.sh gives the checkout when built with `make build`'s ldflags; the
// test binary, a plain `go build`, says it is unreleased work.
func TestVersionReported(t *testing.T) {
	want := buildVersion(t, "test-revision")
	cmd := exec.Command("sh", "scripts/ldflags.sh")
	cmd.Env = append(os.Environ(), "VERSION=", "REVISION=test-revision")
	ldflags, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/ldflags.sh: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "gameserver_exporter")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", strings.TrimSpace(string(ldflags)), "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	checkVersion(t, bin, `(?s)gameserver_exporter, version `+regexp.QuoteMeta(want)+` .*revision: test-revision.*build user:.*build date:`,
		want, `version="`+want+`"`, `revision="test-revision"`)

	if tags, _ := exec.Command("git", "tag", "--points-at", "HEAD").Output(); len(tags) > 0 {
		t.Skipf("HEAD is tagged %s: a build of it may be the release", strings.TrimSpace(string(tags)))
	}
	// The revision follows when Go recorded it (not with -buildvcs=false).
	want = versionFile(t) + "+unreleased"
	checkVersion(t, binary, `gameserver_exporter, version `+regexp.QuoteMeta(want)+`(\.[0-9a-f]{12})? `, want)
}

// TestDockerfileVersion: the Dockerfile writes no version of its own (no ARG
// VERSION default): make docker passes scripts/version.sh's.
func TestDockerfileVersion(t *testing.T) {
	b := readFile(t, "Dockerfile")
	if n := len(regexp.MustCompile(`(?m)^ARG VERSION$`).FindAllString(b, -1)); n != 2 || strings.Contains(b, "ARG VERSION=") {
		t.Errorf("Dockerfile: %d ARG VERSION lines without a default, want one per stage (a default would stamp unreleased work)", n)
	}
	if !strings.Contains(b, `org.opencontainers.image.version="${VERSION:-unreleased}"`) {
		t.Errorf("Dockerfile: the version label does not say unreleased when no VERSION is given")
	}
}

// TestDockerBuildStage runs the Dockerfile's build command on the build context
// .dockerignore lets in (no .git): the binary names itself unreleased work or the
// release as CHANGELOG.md says.
func TestDockerBuildStage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the exporter: skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the build stage runs sh")
	}
	m := regexp.MustCompile(`(?s)\nRUN (CGO_ENABLED=0 go build .*?)\n\n`).FindStringSubmatch(readFile(t, "Dockerfile"))
	if m == nil {
		t.Fatal("Dockerfile: no RUN CGO_ENABLED=0 go build ... in the build stage")
	}
	run := strings.ReplaceAll(m[1], "\\\n", " ")
	run, _, _ = strings.Cut(run, "&&") // the build, not the --config.check after it
	ctx := dockerContext(t)
	out := t.TempDir()
	run = strings.ReplaceAll(run, "/out/", out+"/")
	build := func(want string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", run)
		cmd.Dir = ctx
		cmd.Env = append(os.Environ(), "REVISION=unknown", "BRANCH=unknown", "VERSION=", "BUILD_DATE=", "GOFLAGS=-buildvcs=false")
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", run, err, o)
		}
		o, err := exec.Command(filepath.Join(out, "gameserver_exporter"), "--version").CombinedOutput()
		if err != nil || !strings.Contains(string(o), "version "+want+" ") {
			t.Errorf("image binary --version: %v\n%s\nwant version %s", err, o, want)
		}
	}
	v := versionFile(t)
	if buildVersion(t, "") != v {
		build(v + "+unreleased") // the checkout's CHANGELOG.md
	}
	// The context's own CHANGELOG.md, rewritten: .dockerignore must let it in.
	if _, err := os.Stat(filepath.Join(ctx, "CHANGELOG.md")); err != nil {
		t.Fatalf(".dockerignore leaves out CHANGELOG.md: an image cannot tell a release from unreleased work")
	}
	if err := os.WriteFile(filepath.Join(ctx, "CHANGELOG.md"), []byte("# Changelog\n\n## "+v+" - 2026-11-26\n\n- a change\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build(v)
}

// dockerContext copies the committed files .dockerignore lets in (its "*", "!"
// and "**/" lines) to a temporary directory.
func dockerContext(t *testing.T) string {
	t.Helper()
	ign := readFile(t, ".dockerignore")
	files, err := exec.Command("git", "ls-files").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	var keep, drop []string
	for _, l := range strings.Split(ign, "\n") {
		switch {
		case strings.HasPrefix(l, "!"):
			keep = append(keep, strings.TrimSuffix(l[1:], "/"))
		case strings.HasPrefix(l, "**/"):
			drop = append(drop, l[3:])
		}
	}
	dir := t.TempDir()
	for _, f := range strings.Fields(string(files)) {
		kept := false
		for _, k := range keep {
			ok, _ := filepath.Match(k, f)
			kept = kept || ok || strings.HasPrefix(f, k+"/")
		}
		for _, d := range drop {
			for _, part := range strings.Split(f, "/") {
				if ok, _ := filepath.Match(d, part); ok {
					kept = false
				}
			}
		}
		if !kept {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue // deleted in the working tree
		}
		st, _ := os.Stat(f)
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), src, st.Mode()); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReleaseScript runs scripts/release.sh for the host platform: one archive of
// the stamped binary, LICENSE, README.md, CHANGELOG.md and examples/, and a
// sha256sums.txt that verifies it.
func TestReleaseScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release: skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("scripts/release.sh is a bash script")
	}
	needTools(t, "bash", "tar", "gzip", "sha256sum", "git")
	if err := exec.Command("git", "ls-files", "--error-unmatch", "CHANGELOG.md").Run(); err != nil {
		t.Skip("not in a git checkout with CHANGELOG.md committed: skipping")
	}
	// A snapshot: the checkout's CHANGELOG may well say "Unreleased" (TestVersionScripts).
	rev, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("git rev-parse: %v", err)
	}
	version := versionFile(t) + "+unreleased." + strings.TrimSpace(string(rev))
	dist := t.TempDir()
	cmd := exec.Command("bash", "scripts/release.sh", runtime.GOOS+"/"+runtime.GOARCH)
	cmd.Env = append(os.Environ(), "DIST="+dist, "VERSION=", "SNAPSHOT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	dir := "gameserver_exporter-" + version + "." + runtime.GOOS + "-" + runtime.GOARCH
	name := dir + ".tar.gz"
	sums, err := os.ReadFile(filepath.Join(dist, "sha256sums.txt"))
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(sums)), "  "+name) {
		t.Fatalf("sha256sums.txt: %q, %v", sums, err)
	}
	check := exec.Command("sha256sum", "-c", "sha256sums.txt")
	check.Dir = dist
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, out)
	}

	// Every entry owned by 0:0; the archived binary is the stamped one, stripped.
	list, err := testenv.RunTool(time.Minute, dist, "tar", "--numeric-owner", "-tvzf", name)
	if err != nil {
		t.Fatalf("tar -t: %v\n%s", err, list)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(list), "\n") {
		f := strings.Fields(l) // mode owner size date time name
		if names = append(names, f[len(f)-1]); f[1] != "0/0" {
			t.Errorf("%s: owner %s, want 0/0", f[len(f)-1], f[1])
		}
		if f[len(f)-1] == dir+"/gameserver_exporter" && !strings.Contains(f[0], "x") {
			t.Errorf("binary mode %s: not executable", f[0])
		}
	}
	if out, err := testenv.RunTool(time.Minute, dist, "tar", "-xzf", name); err != nil {
		t.Fatalf("tar -x: %v\n%s", err, out)
	}
	bin := filepath.Join(dist, dir, "gameserver_exporter")
	if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "version "+version+" ") {
		t.Errorf("archived binary --version: %v\n%s", err, out)
	}
	if f, err := elf.Open(bin); runtime.GOOS == "linux" && (err != nil || f.Section(".symtab") != nil || f.Section(".debug_info") != nil) {
		t.Errorf("archived binary: %v, or it has a symbol table or DWARF: not stripped", err)
	}
	for _, want := range []string{"gameserver_exporter", "LICENSE", "README.md", "CHANGELOG.md", "examples/modules.yml", "examples/systemd/gameserver_exporter.service"} {
		if !slices.Contains(names, dir+"/"+want) {
			t.Errorf("archive lacks %s/%s; has %v", dir, want, names)
		}
	}
}

// TestReleasePlatforms: scripts/release.sh strips every PLATFORMS binary (-s -w),
// builds 32-bit ARM for ARMv7 and names it so, and ships darwin/amd64 too.
func TestReleasePlatforms(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("scripts/release.sh is a bash script")
	}
	needTools(t, "bash", "tar", "gzip", "zip", "sha256sum", "git", "make")
	platforms := makeVar(t, "PLATFORMS")
	prototest.WantAll(t, platforms+" ", "linux/amd64 ", "linux/arm64 ", "linux/arm/v7 ", "windows/amd64 ", "darwin/arm64 ", "darwin/amd64 ")

	dir := t.TempDir()
	log := filepath.Join(dir, "builds")
	fake := filepath.Join(dir, "go")
	os.WriteFile(fake, []byte(`#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift;; -ldflags) flags=$2; shift;; esac; shift; done
echo "$GOOS $GOARCH ${GOARM:--} $(echo "$flags" | cut -c1-5)" >>`+log+`
echo binary >"$out"
`), 0o755)
	cmd := exec.Command("bash", append([]string{"scripts/release.sh"}, strings.Fields(platforms)...)...)
	cmd.Env = append(os.Environ(), "GO="+fake, "DIST="+filepath.Join(dir, "dist"), "VERSION=", "SNAPSHOT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	builds, _ := os.ReadFile(log)
	prototest.WantAll(t, string(builds), "linux arm 7 -s -w", "darwin amd64 - -s -w", "linux amd64 - -s -w", "windows amd64 - -s -w")
	sums, _ := os.ReadFile(filepath.Join(dir, "dist", "sha256sums.txt"))
	prototest.WantAll(t, string(sums), ".linux-armv7.tar.gz", ".darwin-amd64.tar.gz", ".windows-amd64.zip")
}

// TestReadmeAgreesWithChangelog: the README's Install section names CHANGELOG.md's
// newest release (VERSION's) as the latest, and marks "(unreleased)" features only
// while the changelog has an "Unreleased" section.
func TestReadmeAgreesWithChangelog(t *testing.T) {
	cl := readFile(t, "CHANGELOG.md")
	// The newest section, and the newest release (Unreleased aside).
	top, latest := regexp.MustCompile(`(?m)^## (\S+)`).FindStringSubmatch(cl), regexp.MustCompile(`(?m)^## (\d\S*)`).FindStringSubmatch(cl)
	if v := versionFile(t); top == nil || latest == nil || latest[1] != v {
		t.Fatalf("CHANGELOG.md's newest release is %q, VERSION says %s", latest, v)
	}
	readme := readFile(t, "README.md")
	install := regexp.MustCompile(`(?s)\n## Install\n.*?(?:\n## |\z)`).FindString(readme)
	if install == "" {
		t.Fatal("README.md has no ## Install section")
	}
	prototest.WantAll(t, install, "The latest release is **"+latest[1]+"**", "gameserver_exporter@v"+latest[1],
		"releases/download/v"+latest[1], "gameserver_exporter-"+latest[1]+".linux-amd64.tar.gz", "sha256sums.txt")
	marked := regexp.MustCompile(`(?i)\(unreleased`).MatchString(readme)
	switch {
	case top[1] == "Unreleased" && (!strings.Contains(install, `"Unreleased"`) || !marked):
		t.Errorf("CHANGELOG.md has unreleased changes: README's Install section must say so and mark the sections (\"(unreleased)\")")
	case top[1] != "Unreleased" && marked:
		t.Errorf("CHANGELOG.md's newest section is the release %s, but README.md still marks features \"(unreleased)\"", top[1])
	}
}
