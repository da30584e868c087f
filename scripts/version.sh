#!/bin/sh
# version.sh: the version a build of this tree names itself, printed. The VERSION
# file's X.Y.Z only when the tree is that release (CHANGELOG.md's newest section is
# it: scripts/release-check.sh); else unreleased work, X.Y.Z+unreleased.REV (the
# first 12 digits of REVISION, else of git's HEAD; X.Y.Z+unreleased without either),
# as a plain `go build` says too (internal/buildinfo). SNAPSHOT=1 always names the
# tree unreleased (make release-snapshot). Used by scripts/ldflags.sh, release.sh
# and the Makefile; CHANGELOG (a path) stands in for CHANGELOG.md in tests.
set -eu
cd "$(dirname "$0")/.."
if [ "${SNAPSHOT:-}" != 1 ] && VERSION= sh scripts/release-check.sh "${CHANGELOG:-CHANGELOG.md}" 2>/dev/null; then
	exit 0
fi
rev=${REVISION:-$(git rev-parse HEAD 2>/dev/null || true)}
case "$rev" in
"" | unknown) echo "$(cat VERSION)+unreleased" ;;
*) echo "$(cat VERSION)+unreleased.$(printf '%.12s' "$rev")" ;;
esac
