#!/bin/sh
# Prints the -ldflags (with --build-args: the container build arguments) that stamp a build with its version, read by --version, the
# landing page and gameserver_exporter_build_info. Used by `make build`, `make cross`,
# scripts/release.sh and the Dockerfile. Each value can be given in the environment
# (VERSION, REVISION, BRANCH, BUILD_USER, BUILD_DATE); else it comes from
# scripts/version.sh (the VERSION file's release, or VERSION+unreleased.REV for
# unreleased work), git (none in a container build: "unknown") and the clock, or
# from SOURCE_DATE_EPOCH for a reproducible date.
set -eu
cd "$(dirname "$0")/.."
pkg=github.com/prometheus/common/version
# Values go unquoted into -X: drop anything that would split them.
clean() { printf '%s' "$1" | tr -cd 'A-Za-z0-9._:@+/-'; }
gitv() { git "$@" 2>/dev/null || echo unknown; }
revision=${REVISION:-$(gitv rev-parse HEAD)}
version=${VERSION:-$(REVISION=$revision sh scripts/version.sh)}
branch=${BRANCH:-$(gitv rev-parse --abbrev-ref HEAD)}
user=${BUILD_USER:-$(id -un 2>/dev/null || echo unknown)@$(hostname 2>/dev/null || echo unknown)}
if [ -z "${BUILD_DATE:-}" ]; then
	if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
		BUILD_DATE=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d-%H:%M:%S 2>/dev/null ||
			date -u -r "$SOURCE_DATE_EPOCH" +%Y%m%d-%H:%M:%S)
	else
		BUILD_DATE=$(date -u +%Y%m%d-%H:%M:%S)
	fi
fi
if [ "${1:-}" = --build-args ]; then
	# The same values as podman/docker build arguments, for the Dockerfile's ARGs
	# (make docker): the image's binary is stamped as `make build`'s is.
	printf -- '--build-arg VERSION=%s --build-arg REVISION=%s --build-arg BRANCH=%s --build-arg BUILD_DATE=%s\n' \
		"$(clean "$version")" "$(clean "$revision")" "$(clean "$branch")" "$(clean "$BUILD_DATE")"
	exit 0
fi
printf -- '-X %s.Version=%s -X %s.Revision=%s -X %s.Branch=%s -X %s.BuildUser=%s -X %s.BuildDate=%s\n' \
	"$pkg" "$(clean "$version")" "$pkg" "$(clean "$revision")" "$pkg" "$(clean "$branch")" \
	"$pkg" "$(clean "$user")" "$pkg" "$(clean "$BUILD_DATE")"
