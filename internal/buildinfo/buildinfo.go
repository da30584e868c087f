// Package buildinfo says what a build of the exporter is, for --version, the landing
// page and gameserver_exporter_build_info (prometheus/common/version's variables).
package buildinfo

import (
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/prometheus/common/version"
)

// Fill completes the version, revision and date of a build that ldflags did not
// stamp (scripts/ldflags.sh stamps make build, the image and the releases): a
// plain `go build` or `go install` says what Go recorded in the binary.
// versionFile is the VERSION file (main embeds it): the last release, or the one
// being cut.
func Fill(versionFile string) {
	bi, _ := debug.ReadBuildInfo()
	fill(bi, versionFile)
}

// A build is a release only when Go built it as a release tag (go install
// ...@v0.4.0, or go build of a clean checkout of the tag); anything else (a
// commit after the tag, a modified tree, no version control) is unreleased work
// and says so as VERSION+unreleased.REVISION, the name `make release-snapshot`
// gives the archives of unreleased work.
func fill(bi *debug.BuildInfo, versionFile string) {
	settings := map[string]string{}
	mainVersion := ""
	if bi != nil {
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		mainVersion = bi.Main.Version
	}
	if version.Version == "" {
		if released(mainVersion) {
			version.Version = strings.TrimPrefix(mainVersion, "v")
		} else {
			version.Version = unreleased(strings.TrimSpace(versionFile), settings["vcs.revision"], mainVersion)
		}
	}
	if version.Revision == "" {
		if rev := settings["vcs.revision"]; rev != "" {
			if settings["vcs.modified"] == "true" {
				rev += "-modified"
			}
			version.Revision = rev
		}
	}
	if version.BuildDate == "" {
		version.BuildDate = settings["vcs.time"]
	}
}

// pseudoRevision is the commit at the end of a Go pseudo-version
// (v0.0.0-20261126154545-1a5a8b2100bf, v0.3.1-0.20261126154545-1a5a8b2100bf).
var pseudoRevision = regexp.MustCompile(`[-.]\d{14}-([0-9a-f]{12})(\+.*)?$`)

// released: v names a release tag, not "(devel)", a pseudo-version or a
// modified tree (+dirty).
func released(v string) bool {
	return strings.HasPrefix(v, "v") && !strings.Contains(v, "+") && !pseudoRevision.MatchString(v)
}

// unreleased is base+unreleased.REV, REV the first 12 digits of the commit (from
// version control, else from the pseudo-version), or base+unreleased when unknown.
func unreleased(base, vcsRevision, mainVersion string) string {
	rev := vcsRevision
	if m := pseudoRevision.FindStringSubmatch(mainVersion); rev == "" && m != nil {
		rev = m[1]
	}
	if rev == "" {
		return base + "+unreleased"
	}
	return base + "+unreleased." + rev[:min(12, len(rev))]
}
