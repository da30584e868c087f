#!/usr/bin/env bash
# release.sh [OS/ARCH ...]: the release archives, one per platform, in DIST (dist/):
#   gameserver_exporter-VERSION.OS-ARCH.tar.gz (.zip for windows), holding
#   gameserver_exporter-VERSION.OS-ARCH/{gameserver_exporter[.exe],LICENSE,README.md,CHANGELOG.md,examples/}
# and DIST/sha256sums.txt over them. Without arguments: the host's platform only.
# The binaries are static (CGO_ENABLED=0) and stamped by scripts/ldflags.sh; file
# dates and owners in the archives are fixed (SOURCE_DATE_EPOCH, else the last
# commit's date), so the same commit and Go give the same tar.gz.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-dist}
NAME=gameserver_exporter
# The version is the VERSION file's, and CHANGELOG.md must name it
# (scripts/release-check.sh). SNAPSHOT=1 builds the archives of unreleased work
# instead, as VERSION+unreleased.REVISION: never under a released version's name.
if [ "${SNAPSHOT:-}" = 1 ]; then
	VERSION=$(SNAPSHOT=1 scripts/version.sh)
else
	VERSION=$(scripts/release-check.sh)
fi
export VERSION
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
ldflags=$(scripts/ldflags.sh)
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=("$($GO env GOOS)/$($GO env GOARCH)")

mkdir -p "$DIST"
DIST=$(cd "$DIST" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What ships besides the binary: git's list when there is one (no stray files).
files() {
	git ls-files -- LICENSE README.md CHANGELOG.md examples 2>/dev/null ||
		find LICENSE README.md CHANGELOG.md examples -type f
}
mapfile -t docs < <(files)
for need in LICENSE README.md CHANGELOG.md; do
	printf '%s\n' "${docs[@]}" | grep -qx "$need" || { echo "release: $need is missing (or not committed)" >&2; exit 1; }
done

archives=()
for p in "${platforms[@]}"; do
	# OS/ARCH, or OS/arm/vN for 32-bit ARM (GOARM=N; the archive says armvN).
	IFS=/ read -r os arch variant <<<"$p"
	goarm=
	if [ "$arch" = arm ]; then
		goarm=${variant#v}
		goarm=${goarm:-7}
	fi
	dir=$NAME-$VERSION.$os-$arch${goarm:+v$goarm}
	exe=$NAME
	[ "$os" = windows ] && exe=$NAME.exe
	echo "release: $dir"
	mkdir -p "$work/$dir"
	# -s -w: no symbol table nor DWARF (a third of the size); panics still print
	# their stack traces.
	GOOS=$os GOARCH=$arch GOARM=$goarm CGO_ENABLED=0 $GO build -trimpath -ldflags "-s -w $ldflags" -o "$work/$dir/$exe" .
	for f in "${docs[@]}"; do
		mkdir -p "$work/$dir/$(dirname "$f")"
		cp "$f" "$work/$dir/$f"
	done
	find "$work/$dir" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	if [ "$os" = windows ]; then
		out=$dir.zip
		rm -f "$DIST/$out"
		(cd "$work" && find "$dir" -print | LC_ALL=C sort | zip -q -X -@ "$DIST/$out")
	else
		out=$dir.tar.gz
		tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
			-cf - "$dir" | gzip -9n >"$DIST/$out"
	fi
	archives+=("$out")
done
# The Helm chart as `helm package` lays it out (the chart's directory at the top),
# with the same fixed dates and owners; publish it with
# `helm push dist/gameserver-exporter-VERSION.tgz oci://REGISTRY/charts`.
chart=charts/gameserver-exporter
charts=()
if [ -f "$chart/Chart.yaml" ]; then
	base=$(cat VERSION)
	grep -qx "version: $base" "$chart/Chart.yaml" ||
		{ echo "release: $chart/Chart.yaml: version is not $base" >&2; exit 1; }
	out=gameserver-exporter-$VERSION.tgz
	mkdir -p "$work/chart"
	cp -r "$chart" "$work/chart/"
	if [ "$VERSION" != "$base" ]; then # a snapshot: the chart says which (semver build metadata)
		sed -i "s/^version: $base\$/version: $VERSION/; s/^appVersion: \"\{0,1\}$base\"\{0,1\}\$/appVersion: \"$VERSION\"/" "$work/chart/gameserver-exporter/Chart.yaml"
	fi
	find "$work/chart" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	tar -C "$work/chart" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
		-cf - gameserver-exporter | gzip -9n >"$DIST/$out"
	charts+=("$out")
fi
# One sums file for the chart and archives of this run, in sha256sum -c format.
(cd "$DIST" && sha256sum "${charts[@]}" "${archives[@]}" >sha256sums.txt)
echo "release: ${#archives[@]} archives and sha256sums.txt in $DIST"
