package main

import (
	_ "embed"
	"runtime/debug"
	"strings"

	"github.com/prometheus/common/version"
)

// embeddedVersion is the VERSION file, for builds that stamp no version: a plain
// `go build` or `go install` from a checkout.
//
//go:embed VERSION
var embeddedVersion string

// The version, revision and date a build was stamped with (scripts/ldflags.sh);
// where a build was not (go build, go install ...@version), what Go recorded in
// the binary: the module's version (or else the VERSION file), vcs.revision
// (-modified when the tree had changes) and vcs.time. --version, the landing page
// and gameserver_exporter_build_info then always say what the build is.
func init() {
	bi, _ := debug.ReadBuildInfo()
	fillVersion(bi, embeddedVersion)
}

func fillVersion(bi *debug.BuildInfo, file string) {
	var settings map[string]string
	if bi != nil {
		settings = make(map[string]string, len(bi.Settings))
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
	}
	if version.Version == "" {
		version.Version = strings.TrimSpace(file)
		if bi != nil && taggedVersion(bi.Main.Version) {
			version.Version = strings.TrimPrefix(bi.Main.Version, "v")
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

// taggedVersion: v is a module version that names a release (go install
// ...@v0.4.0, or a pseudo-version after a tag), not "(devel)" nor a
// v0.0.0- pseudo-version of an untagged commit, where the VERSION file says more.
func taggedVersion(v string) bool {
	return strings.HasPrefix(v, "v") && !strings.HasPrefix(v, "v0.0.0-")
}
