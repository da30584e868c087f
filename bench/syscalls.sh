#!/usr/bin/env bash
# bench/syscalls.sh: system calls per probe of the exporter (and of the floor probe),
# counted with strace -c -f while wrk sends probes over a fleet of fake A2S servers
# with the challenge round trip. The counts, not the rate, are the result: strace
# slows every call down.
#
#   bench/syscalls.sh                # the working tree
#   REV=8eebecf bench/syscalls.sh    # an earlier commit, built from a clean export
#   EXPORTER_ARGS='--config.file=x.yml' bench/syscalls.sh
#
# Prints one table per prober: calls per probe for each system call (those above
# 0.05 per probe), errors per probe (EAGAIN reads, mostly), and the total.
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
REV=${REV:-}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-50}
FLEET=${FLEET:-1000}
FLEET_PORT=${FLEET_PORT:-21000}
HTTP_PORT=${HTTP_PORT:-19650}
EXPORTER_ARGS=${EXPORTER_ARGS:-}
GO_TAGS=${GO_TAGS:-}

command -v strace >/dev/null || { echo "syscalls.sh: strace is needed (apt-get install strace)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "syscalls.sh: wrk is needed (apt-get install wrk)" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gse-syscalls.XXXXXX")
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

SRC=$ROOT
if [ -n "$REV" ]; then
  SRC=$TMP/src
  mkdir -p "$SRC"
  git -C "$ROOT" archive "$REV" | tar -x -C "$SRC"
fi
(cd "$SRC" && go build -tags "$GO_TAGS" -o "$TMP/exporter" .)
(cd "$ROOT" && go build -tags tools -o "$TMP/fakefleet" ./bench/fakefleet && go build -tags tools -o "$TMP/floorprobe" ./bench/floorprobe)

"$TMP/fakefleet" -listen 127.0.0.1 -base-port "$FLEET_PORT" -count "$FLEET" -proto a2s -challenge >"$TMP/fleet.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do grep -q ready "$TMP/fleet.log" && break; sleep 0.1; done

# count NAME CMD...: runs CMD (an HTTP prober on $HTTP_PORT) under strace while wrk
# probes it, and prints its system calls per probe.
count() {
  local name=$1 spid ppid n
  shift
  strace -f -c -o "$TMP/$name.strace" "$@" >"$TMP/$name.log" 2>&1 &
  spid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$HTTP_PORT/probe?module=a2s&target=127.0.0.1:$FLEET_PORT" 2>/dev/null | grep -q '^probe_success 1' && break
    sleep 0.1
  done
  wrk -t2 -c"$CONNS" -d"$DURATION" -s "$BENCH/rotate.lua" "http://127.0.0.1:$HTTP_PORT" -- "$FLEET_PORT" "$FLEET" a2s >"$TMP/$name.wrk"
  ppid=$(pgrep -P "$spid" | head -1)
  kill "$ppid"
  wait "$spid" || true
  n=$(awk '/requests in/ {print $1}' "$TMP/$name.wrk")
  echo "## $name: $n probes ($(grep rotate: "$TMP/$name.wrk"))"
  echo
  echo "| system call | calls per probe | errors per probe |"
  echo "|---|---:|---:|"
  # strace -c rows: % time, seconds, usecs/call, calls, [errors,] syscall.
  awk -v n="$n" '
    /^-+/ || /^% time/ {next}
    {
      name = $NF; calls = $4; errs = (NF == 6) ? $5 : 0
      if (name == "total") { tc = calls; te = errs; next }
      if (calls / n >= 0.05) printf "%s %.2f %.2f\n", name, calls / n, errs / n
    }
    END { printf "TOTAL %.2f %.2f\n", tc / n, te / n }' "$TMP/$name.strace" |
    sort -k2 -nr | awk '{printf "| %s | %s | %s |\n", ($1 == "TOTAL" ? "**total**" : $1), $2, $3}'
  echo
}

count "exporter${REV:+ at $REV}" "$TMP/exporter" --web.listen-address="127.0.0.1:$HTTP_PORT" --probe.min-interval=0 \
  --probe.max-concurrent=20000 --log.level=warn $EXPORTER_ARGS
count floor "$TMP/floorprobe" -web.listen-address "127.0.0.1:$HTTP_PORT"
