package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/prometheus/common/version"
)

// TestFill: a build stamped by ldflags keeps its values; one that was not is the
// release only when Go built it as a release tag, else VERSION+unreleased.REV,
// with the revision and date Go recorded.
func TestFill(t *testing.T) {
	const rev = "1a5a8b2100bf9c55bc0aeaa1f478cd4ac952a85e"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-26T15:45:45Z"}}
	dirty := append([]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, vcs...)
	for _, tc := range []struct {
		name                     string
		stamped                  [3]string // version, revision, date set by ldflags
		bi                       *debug.BuildInfo
		wantV, wantRev, wantDate string
	}{
		{"go build, no version control recorded", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.3.0+unreleased", "", ""},
		{"go build, checkout", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "0.3.0+unreleased.1a5a8b2100bf", rev, "2026-11-26T15:45:45Z"},
		{"go build, untagged repository", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261126154545-1a5a8b2100bf+dirty"}, Settings: dirty}, "0.3.0+unreleased.1a5a8b2100bf", rev + "-modified", "2026-11-26T15:45:45Z"},
		{"go build, commits after v0.3.0", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261126154545-1a5a8b2100bf"}, Settings: vcs}, "0.3.0+unreleased.1a5a8b2100bf", rev, "2026-11-26T15:45:45Z"},
		{"go build, the tag, modified", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0+dirty"}, Settings: dirty}, "0.3.0+unreleased.1a5a8b2100bf", rev + "-modified", "2026-11-26T15:45:45Z"},
		{"go build, the tag", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: vcs}, "0.3.0", rev, "2026-11-26T15:45:45Z"},
		{"go install @v0.4.0", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, "0.4.0", "", ""},
		{"go install @main", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261126154545-1a5a8b2100bf"}}, "0.3.0+unreleased.1a5a8b2100bf", "", ""},
		{"go install @pre-release commit", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0-rc.1.0.20261126154545-1a5a8b2100bf"}}, "0.3.0+unreleased.1a5a8b2100bf", "", ""},
		{"no build info", [3]string{}, nil, "0.3.0+unreleased", "", ""},
		{"make build", [3]string{"0.3.0+unreleased.deadbeef0000", "deadbeef", "20261126-15:00:00"}, &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: dirty}, "0.3.0+unreleased.deadbeef0000", "deadbeef", "20261126-15:00:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := [3]string{version.Version, version.Revision, version.BuildDate}
			defer func() { version.Version, version.Revision, version.BuildDate = saved[0], saved[1], saved[2] }()
			version.Version, version.Revision, version.BuildDate = tc.stamped[0], tc.stamped[1], tc.stamped[2]
			fill(tc.bi, "0.3.0\n")
			if version.Version != tc.wantV || version.Revision != tc.wantRev || version.BuildDate != tc.wantDate {
				t.Errorf("version %q revision %q date %q, want %q %q %q", version.Version, version.Revision, version.BuildDate, tc.wantV, tc.wantRev, tc.wantDate)
			}
		})
	}
}
