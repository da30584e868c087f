#!/usr/bin/env bash
# install-gamedig.sh DIR: installs gamedig (npm), the reference client the
# gamedig_test.go files compare with, into DIR as scripts/gamedig pins it (npm ci
# of its lock), when DIR does not hold that install yet and node and npm are there.
# The tests find it through GAMEDIG_DIR; without it they skip, saying so. One retry
# a request: without the registry (offline) it gives up in seconds, not a minute.
set -u
dir=$1
src=$(cd "$(dirname "$0")/gamedig" && pwd)
if cmp -s "$src/package-lock.json" "$dir/package-lock.json" && [ -e "$dir/node_modules/gamedig/package.json" ]; then
  exit 0
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-gamedig: no node or npm; the gamedig comparisons will skip" >&2
  exit 0
fi
echo "install-gamedig: installing gamedig into $dir" >&2
mkdir -p "$dir" && cp "$src/package.json" "$src/package-lock.json" "$dir/" &&
  (cd "$dir" && timeout 300 npm ci --no-audit --no-fund --silent \
    --fetch-retries=1 --fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000 >/tmp/gse-npm.log 2>&1) ||
  { echo "install-gamedig: npm ci failed (see /tmp/gse-npm.log); the gamedig comparisons will skip" >&2; rm -f "$dir/package-lock.json"; }
exit 0
