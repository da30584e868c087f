#!/usr/bin/env bash
# bench/fidelity.sh: how true the latency the exporter reports is under load. Fake A2S
# servers (no challenge: one round trip for every prober) answer DELAY after each
# request by their own clock; wrk keeps CONNS probes in flight as fast as the exporter
# answers, and every answer's probe_duration_seconds and info-phase
# gameserver_query_duration_seconds are collected (bench/fidelity.lua); qstat's ping
# is read under the same load. The fleet reports how long its replies really waited
# from the request's arrival in its socket (the kernel's stamp: a request also waits
# there for a fleet goroutine on a busy machine, and its timers fire late): the
# reported latency is judged against that, not against DELAY.
#
#   bench/fidelity.sh                      # 20 ms, 50 and 2000 in flight, 10 s each
#   DELAY=5ms CONNS_LIST="50" DURATION=5s bench/fidelity.sh
#
# Prints a table and writes it to bench/results/fidelity.md (git-ignored).
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
DELAY=${DELAY:-20ms}
CONNS_LIST=${CONNS_LIST:-50 2000}
DURATION=${DURATION:-10s}
FLEET=${FLEET:-2000}
FLEET_PORT=${FLEET_PORT:-27000}
HTTP_PORT=${HTTP_PORT:-19700}
for c in wrk quakestat ss; do command -v "$c" >/dev/null || { echo "fidelity.sh: $c is needed (bench/run.sh installs wrk and qstat)" >&2; exit 1; }; done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gse-fidelity.XXXXXX")
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

(cd "$ROOT" && go build -o "$TMP/gameserver_exporter" . && go build -tags tools -o "$TMP/fakefleet" ./bench/fakefleet)
for i in $(seq 0 $((FLEET - 1))); do echo "127.0.0.1:$((FLEET_PORT + i))"; done >"$TMP/targets.txt"

# fleet: starts a fresh fleet (its delay counters from zero); sets FLEET_PID.
fleet() {
  "$TMP/fakefleet" -listen 127.0.0.1 -base-port "$FLEET_PORT" -count "$FLEET" -proto a2s -delay "$DELAY" >"$TMP/fleet.log" 2>&1 &
  FLEET_PID=$!
  PIDS+=("$FLEET_PID")
  for _ in $(seq 100); do grep -q ready "$TMP/fleet.log" && return; sleep 0.1; done
  echo "fidelity.sh: the fleet did not start: $(tail -1 "$TMP/fleet.log")" >&2
  exit 1
}
# fleet_delay: stops the fleet and prints its replies' real mean and max wait in ms.
fleet_delay() {
  kill -INT "$FLEET_PID"
  wait "$FLEET_PID" 2>/dev/null || true
  awk '/delay_mean_us/ {for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}; printf "%.3f %.3f", v["delay_mean_us"] / 1000, v["delay_max_us"] / 1000}' "$TMP/fleet.log"
}

"$TMP/gameserver_exporter" --web.listen-address="127.0.0.1:$HTTP_PORT" --probe.min-interval=0 --probe.max-concurrent=20000 --log.level=warn >"$TMP/exporter.log" 2>&1 &
PIDS+=("$!")
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$HTTP_PORT/-/healthy" >/dev/null && break; sleep 0.1; done

ROWS=()
for conns in $CONNS_LIST; do
  fleet
  wrk -t2 -c"$conns" -d"$DURATION" --timeout 10s -s "$BENCH/fidelity.lua" "http://127.0.0.1:$HTTP_PORT" -- "$FLEET_PORT" "$FLEET" a2s >"$TMP/wrk.out" 2>&1 || true
  read -r real realmax <<<"$(fleet_delay)"
  rps=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$TMP/wrk.out")
  for metric in probe_duration_seconds query_info; do
    line=$(grep "^fidelity: $metric " "$TMP/wrk.out" || true)
    mean=$(sed -n 's/.*mean_ms=\([^ ]*\).*/\1/p' <<<"$line") p50=$(sed -n 's/.*p50_ms=\([^ ]*\).*/\1/p' <<<"$line")
    p99=$(sed -n 's/.*p99_ms=\([^ ]*\).*/\1/p' <<<"$line")
    ROWS+=("| exporter \`$metric\` | $conns | $rps | $real (max $realmax) | $mean | $p50 | $p99 | $(awk -v m="$mean" -v r="$real" 'BEGIN {printf "%+.3f (%+.1f%%)", m - r, (m - r) / r * 100}') |")
  done
  # qstat over the same fleet with as many queries in flight, for DURATION.
  fleet
  secs=${DURATION%s}
  end=$(($(date +%s) + secs))
  : >"$TMP/qstat.out"
  runs=0
  while [ "$(date +%s)" -lt "$end" ]; do
    quakestat -default a2s -maxsim "$conns" -sendinterval 0 -raw , -f "$TMP/targets.txt" >>"$TMP/qstat.out" || true
    runs=$((runs + 1))
  done
  read -r real realmax <<<"$(fleet_delay)"
  # sort -n: the pings in order (mawk has no asort).
  stats=$(awk -F, '/^A2S,/ && NF >= 8 && $7 ~ /^[0-9]+$/ {print $7}' "$TMP/qstat.out" | sort -n |
    awk '{v[NR] = $1; s += $1} END {if (NR == 0) {print "0 - - -"; exit} i = int(NR * 0.5) + 1; j = int(NR * 0.99) + 1; if (i > NR) i = NR; if (j > NR) j = NR; printf "%d %.3f %.3f %.3f", NR, s / NR, v[i], v[j]}')
  read -r qn qmean qp50 qp99 <<<"$stats"
  qrate=$(awk -v n="$qn" -v s="$secs" 'BEGIN {printf "%.0f", n / s}')
  ROWS+=("| qstat ping (1 ms resolution) | $conns | $qrate | $real (max $realmax) | $qmean | $qp50 | $qp99 | $(awk -v m="$qmean" -v r="$real" 'BEGIN {if (m == "-") print "-"; else printf "%+.3f (%+.1f%%)", m - r, (m - r) / r * 100}') |")
done

mkdir -p "$BENCH/results"
{
  echo "# Latency fidelity: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD); $(nproc) CPUs; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "Command: \`DELAY=$DELAY CONNS_LIST=\"$CONNS_LIST\" DURATION=$DURATION FLEET=$FLEET bench/fidelity.sh\`: $FLEET fake A2S servers answering $DELAY after each request (no challenge)."
  echo "Times in ms. \"Fleet's real delay\": what its replies really waited, by its own clock. The error is the mean reported minus that."
  echo
  echo "| reading | in flight | probes/s | fleet's real delay | mean | p50 | p99 | error of the mean |"
  echo "|---|---:|---:|---|---:|---:|---:|---|"
  printf '%s\n' "${ROWS[@]}"
} | tee "$BENCH/results/fidelity.md"
