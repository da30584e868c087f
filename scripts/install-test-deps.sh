#!/usr/bin/env bash
# Installs the Debian packages the integration tests use, when they are missing and
# we are root with apt-get. Otherwise it says what is missing: those tests skip.
set -u
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-deps: not root or no apt-get; tests that need ${missing[*]} will skip" >&2
  exit 0
fi
echo "install-test-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# The tests start their own servers on loopback: keep packages from starting services.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/gse-apt.log 2>&1; then
  apt-get update -qq >>/tmp/gse-apt.log 2>&1
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >>/tmp/gse-apt.log 2>&1 ||
    { echo "install-test-deps: apt-get failed (see /tmp/gse-apt.log); dependent tests will skip" >&2; tail -5 /tmp/gse-apt.log >&2; }
fi
exit 0
