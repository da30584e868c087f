#!/usr/bin/env bash
# bench/ab.sh: the exporter's CPU per probe at two commits, under the same load. One
# fleet of fake A2S servers (with the challenge round trip) serves both; wrk keeps
# CONNS probes in flight against one build, then the other, PAIRS times, so each
# pair sees the same machine. CPU is the exporter's user + system time from
# /proc/PID/stat over its run, per answered probe.
#
#   bench/ab.sh 7af943b HEAD
#   PAIRS=6 DURATION=10s bench/ab.sh HEAD~1 HEAD
#   ENV_B=GOMAXPROCS=1 bench/ab.sh HEAD HEAD     # one build, two environments
#   GO_TAGS=gse_portable bench/ab.sh HEAD~1 HEAD # the portable path (udp_pooled.go)
#
# ENV_A and ENV_B (space-separated NAME=VALUE words) are the environment each
# side's exporter runs with, beside the shell's.
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
[ $# -eq 2 ] || { echo "usage: bench/ab.sh REV_A REV_B" >&2; exit 2; }
PAIRS=${PAIRS:-4}
DURATION=${DURATION:-8s}
CONNS=${CONNS:-50}
FLEET=${FLEET:-1000}
FLEET_PORT=${FLEET_PORT:-21000}
HTTP_PORT=${HTTP_PORT:-19660}
GO_TAGS=${GO_TAGS:-}
command -v wrk >/dev/null || { echo "ab.sh: wrk is needed (bench/run.sh installs it)" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gse-ab.XXXXXX")
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT

ENV_A=${ENV_A:-}
ENV_B=${ENV_B:-}
for rev in "$1" "$2"; do
  [ -x "$TMP/exporter-$rev" ] && continue
  mkdir -p "$TMP/src-$rev"
  git -C "$ROOT" archive "$rev" | tar -x -C "$TMP/src-$rev"
  (cd "$TMP/src-$rev" && go build -tags "$GO_TAGS" -o "$TMP/exporter-$rev" .)
done
(cd "$ROOT" && go build -tags tools -o "$TMP/fakefleet" ./bench/fakefleet)
"$TMP/fakefleet" -listen 127.0.0.1 -base-port "$FLEET_PORT" -count "$FLEET" -proto a2s -challenge >"$TMP/fleet.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do grep -q ready "$TMP/fleet.log" && break; sleep 0.1; done
grep -q ready "$TMP/fleet.log" || { echo "ab.sh: the fleet did not start: $(tail -1 "$TMP/fleet.log")" >&2; exit 1; }

A="$1${ENV_A:+ ($ENV_A)}" B="$2${ENV_B:+ ($ENV_B)}"
echo "| pair | $A: probes/s | $A: CPU µs a probe | $B: probes/s | $B: CPU µs a probe |"
echo "|---:|---:|---:|---:|---:|"
for pair in $(seq "$PAIRS"); do
  row="| $pair |"
  for side in A B; do
    if [ $side = A ]; then rev=$1 envs=$ENV_A; else rev=$2 envs=$ENV_B; fi
    # shellcheck disable=SC2086 # envs is a list of words
    env $envs "$TMP/exporter-$rev" --web.listen-address="127.0.0.1:$HTTP_PORT" --probe.min-interval=0 --probe.max-concurrent=20000 --log.level=warn >"$TMP/exporter.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$HTTP_PORT/-/healthy" >/dev/null && break; sleep 0.1; done
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    wrk -t2 -c"$CONNS" -d"$DURATION" -s "$BENCH/rotate.lua" "http://127.0.0.1:$HTTP_PORT" -- "$FLEET_PORT" "$FLEET" a2s >"$TMP/wrk.out"
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    ok=$(sed -n 's/.*rotate: ok=\([0-9]*\).*/\1/p' "$TMP/wrk.out")
    rate=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$TMP/wrk.out")
    row+=" $rate | $(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="${ok:-0}" 'BEGIN {if (n > 0) printf "%.1f", t / hz * 1e6 / n; else print "-"}') |"
  done
  echo "$row"
done
