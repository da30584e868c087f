package main

import (
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/prometheus/common/version"
)

// TestFillVersion: a build stamped by ldflags keeps its values; one that was not
// takes the module version of a tagged release, else the VERSION file, and the
// revision and date Go recorded.
func TestFillVersion(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-26T15:45:45Z"}}
	dirty := append([]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, vcs...)
	for _, tc := range []struct {
		name                     string
		stamped                  [3]string // version, revision, date set by ldflags
		bi                       *debug.BuildInfo
		wantV, wantRev, wantDate string
	}{
		{"go build, checkout", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "0.3.0", "abc123", "2026-11-26T15:45:45Z"},
		{"go build, untagged pseudo-version", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126154545-1a5a8b2100bf"}, Settings: dirty}, "0.3.0", "abc123-modified", "2026-11-26T15:45:45Z"},
		{"go install @v0.4.0", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, "0.4.0", "", ""},
		{"no build info", [3]string{}, nil, "0.3.0", "", ""},
		{"make build", [3]string{"0.3.0", "deadbeef", "20261126-15:00:00"}, &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: dirty}, "0.3.0", "deadbeef", "20261126-15:00:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := [3]string{version.Version, version.Revision, version.BuildDate}
			defer func() { version.Version, version.Revision, version.BuildDate = saved[0], saved[1], saved[2] }()
			version.Version, version.Revision, version.BuildDate = tc.stamped[0], tc.stamped[1], tc.stamped[2]
			fillVersion(tc.bi, "0.3.0\n")
			if version.Version != tc.wantV || version.Revision != tc.wantRev || version.BuildDate != tc.wantDate {
				t.Errorf("version %q revision %q date %q, want %q %q %q", version.Version, version.Revision, version.BuildDate, tc.wantV, tc.wantRev, tc.wantDate)
			}
		})
	}
}

// TestPlainBuildVersion: the test binary is a plain `go build` (no ldflags); it
// still says its version in --version, build_info and on the landing page.
func TestPlainBuildVersion(t *testing.T) {
	want := versionFile(t)
	out, err := exec.Command(binary, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("--version: %v\n%s", err, out)
	}
	wantAll(t, string(out), "gameserver_exporter, version "+want+" ")
	e := startExporter(t)
	_, body := e.get(t, "/metrics")
	info := regexp.MustCompile(`(?m)^gameserver_exporter_build_info\{.*\} 1$`).FindString(body)
	if !strings.Contains(info, `version="`+want+`"`) {
		t.Errorf("build_info %q, want version %q", info, want)
	}
	_, body = e.get(t, "/")
	if strings.Contains(body, "version unknown") || !strings.Contains(body, "version "+want) {
		t.Errorf("landing page does not say version %s", want)
	}
}
