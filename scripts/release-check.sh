#!/bin/sh
# release-check.sh [CHANGELOG]: the version a release is cut as, printed, or why
# there is none. The VERSION file is the one place a version is written; a release
# of it needs CHANGELOG.md's newest section to be that version ("## 0.4.0", a date
# after it allowed): while it is "## Unreleased" the changes are not released yet.
# Used by scripts/release.sh; CONTRIBUTING.md says how a release is cut.
set -eu
cd "$(dirname "$0")/.."
changelog=${1:-CHANGELOG.md}
version=$(cat VERSION)
if [ -n "${VERSION:-}" ] && [ "$VERSION" != "$version" ]; then
	echo "release: VERSION=$VERSION given, the VERSION file says $version: the version comes from the file alone" >&2
	exit 1
fi
top=$(sed -n 's/^## \([^ ]*\).*/\1/p' "$changelog" | head -n 1)
case "$top" in
"$version") echo "$version" ;;
Unreleased)
	echo "release: $changelog's newest section is \"Unreleased\": name it \"## $version\" (or the next version, in VERSION too) before cutting a release" >&2
	exit 1 ;;
*)
	echo "release: $changelog's newest section is \"$top\", VERSION says $version: they must agree" >&2
	exit 1 ;;
esac
