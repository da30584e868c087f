#!/usr/bin/env bash
# bench/run.sh: throughput and memory of the exporter against a floor probe,
# blackbox_exporter and qstat, on one machine, all on loopback. See bench/README.md.
#
#   bench/run.sh                         # 3 alternating rounds of 5 s each, then the memory test
#   ROUNDS=1 DURATION=3s bench/run.sh    # smoke run
#
# The summary is printed and written to bench/results/latest.md (git-ignored), the raw
# output of every run to bench/results/latest-raw.log.
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")

DURATION=${DURATION:-5s}            # length of one wrk run (and of one qstat loop)
ROUNDS=${ROUNDS:-3}                 # alternating rounds; the summary takes medians
THREADS=${THREADS:-2}               # wrk -t
CONNS=${CONNS:-50}                  # wrk -c: probes in flight
QSTAT_MAXSIM=${QSTAT_MAXSIM:-$CONNS} # quakestat -maxsim
# quakestat -sendinterval (ms between two sends). qstat's default, 5, paces its sends: on
# loopback every reply is in before the next send, so it runs one query at a time whatever
# -maxsim says (strace: one socket open at once). 0 lets it hold -maxsim queries in flight.
QSTAT_SENDINTERVAL=${QSTAT_SENDINTERVAL:-0}
FLEET=${FLEET:-1000}                # A2S servers (challenge on) the load rotates over
FLEET_PORT=${FLEET_PORT:-21000}     # their first port (UDP, and TCP for blackbox)
INFLIGHT=${INFLIGHT:-10000}         # memory test: probes held in flight at once
SILENT_PORT=${SILENT_PORT:-22000}   # memory test: first port of the silent servers
MEM_TIMEOUT=${MEM_TIMEOUT:-10s}     # memory test: probe timeout (requests stay open this long)
MAX_CONCURRENT=${MAX_CONCURRENT:-20000} # exporter --probe.max-concurrent: above INFLIGHT
HTTP_PORT=${HTTP_PORT:-19100}       # first port tried for the probers' HTTP listeners
SKIP_MEMORY=${SKIP_MEMORY:-0}       # 1: throughput only
# The connection-heavy memory step (issue 38's shape): wrk's keep-alive connections
# over fewer silent servers, single-flight sharing each server's probes. HEAVY=1 runs
# it even with SKIP_MEMORY=1, HEAVY=0 skips it.
HEAVY=${HEAVY:-$((1 - SKIP_MEMORY))}
HEAVY_CONNS=${HEAVY_CONNS:-10000}   # wrk -c: keep-alive connections, each a probe in flight
HEAVY_SERVERS=${HEAVY_SERVERS:-1000} # silent servers they rotate over (HEAVY_CONNS/HEAVY_SERVERS probes each)
HEAVY_DURATION=${HEAVY_DURATION:-6s} # wrk -d
HEAVY_TIMEOUT=${HEAVY_TIMEOUT:-20s} # wrk --timeout (the exporter's default a2s timeout, 5 s, ends each probe first)
GO_TAGS=${GO_TAGS:-}                # build tags of the exporter (gse_portable: the portable UDP path)
# PORTABLE=1 (the default) adds the exporter built with -tags gse_portable (the UDP
# path of every OS but Linux) to the throughput rounds, as the contender "portable".
PORTABLE=${PORTABLE:-1}
[[ " ${GO_TAGS//,/ } " == *" gse_portable "* ]] && PORTABLE=0
NEIGHBOUR=${NEIGHBOUR:-0}           # 1: a CPU-bound process (a shell busy loop) runs beside the throughput rounds
CHALLENGE_CACHE=${CHALLENGE_CACHE:-1} # 0: the exporter's a2s module asks every probe for a fresh challenge, as the others do

RESULTS=$BENCH/results
mkdir -p "$RESULTS"
RAW=$RESULTS/latest-raw.log
: >"$RAW"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gse-bench.XXXXXX")
PIDS=()

say() { echo "run.sh: $*" >&2; }
die() { say "$*"; exit 1; }

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME CMD...: runs CMD in the background, its output in $TMP/NAME.log; sets PID.
start() {
  local name=$1
  shift
  "$@" >"$TMP/$name.log" 2>&1 &
  PID=$!
  PIDS+=("$PID")
}

# stop PID: ends a process started here, waits for it and forgets it.
stop() {
  local p keep=()
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  for p in "${PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
  PIDS=("${keep[@]}")
}

# run_fg OUT CMD...: runs CMD with its output in OUT and waits for it, in the
# background so that a signal reaches the traps (and CMD is ended) at once.
run_fg() {
  local out=$1 pid rc=0
  shift
  "$@" >"$out" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  wait "$pid" || rc=$?
  stop "$pid"
  return "$rc"
}

# wait_until PID WHAT CMD...: polls CMD until it succeeds (10 s at most), failing if PID dies.
wait_until() {
  local pid=$1 what=$2 i
  shift 2
  for i in $(seq 100); do
    "$@" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  say "timed out waiting for $what"
  return 1
}

# listening PID PORT: true when process PID listens on TCP PORT and answers /-/healthy.
listening() {
  ss -Htlnp "sport = :$2" 2>/dev/null | grep -q "pid=$1," && curl -sf "http://127.0.0.1:$2/-/healthy" >/dev/null
}

# free_port VAR FROM: sets VAR to the first TCP port from FROM that nothing listens on
# and that this run has not handed out yet (no subshell: USED_PORTS must persist).
USED_PORTS=" "
free_port() {
  local p=$2
  while [[ $USED_PORTS == *" $p "* ]] || [ -n "$(ss -Htln "sport = :$p" 2>/dev/null)" ]; do
    p=$((p + 1))
  done
  USED_PORTS+="$p "
  printf -v "$1" '%s' "$p"
}

# seconds DURATION: wrk-style duration (90, 5s, 2m) in seconds.
seconds() {
  case $1 in
  *ms) awk -v v="${1%ms}" 'BEGIN {print v/1000}' ;;
  *s) echo "${1%s}" ;;
  *m) echo $((${1%m} * 60)) ;;
  *) echo "$1" ;;
  esac
}

# paired A B: the median over the rounds of A's rate divided by B's in the same round.
# Rounds run seconds apart, so a slow spell of a shared machine cancels out.
paired() {
  local a=(${RATES[$1]:-}) b=(${RATES[$2]:-}) i out=""
  for i in "${!a[@]}"; do
    [ -n "${b[$i]:-}" ] && out+="$(ratio "${a[$i]}" "${b[$i]}") "
  done
  median <<<"$out"
}

# paired_cpu A B: the median over the rounds of A's CPU per probe divided by B's.
paired_cpu() {
  local a=(${CPU[$1]:-}) b=(${CPU[$2]:-}) i out=""
  for i in "${!a[@]}"; do
    [ -n "${b[$i]:-}" ] && out+="$(ratio "${a[$i]}" "${b[$i]}") "
  done
  median <<<"$out"
}
# spread "V V V": min-max.
spread() { tr ' ' '\n' <<<"$1" | { grep . || true; } | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {if (NR) print lo "-" hi; else print "n/a"}'; }
# goal OP BOUND WHAT VALUE: one row of the goals table.
goal() {
  local met
  met=$(awk -v v="$4" -v b="$2" -v op="$1" 'BEGIN {if (v == "" || v == "n/a") print "not measured"; else if ((op == ">=" && v >= b) || (op == "<=" && v <= b)) print "yes"; else print "**no**"}')
  echo "| $3 $1 $2 | ${4:-n/a} | $met |"
}
median() { tr ' ' '\n' | { grep . || true; } | sort -g | awk '{v[NR]=$1} END {if (NR==0) print ""; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a=="" || b=="" || b==0) print "n/a"; else printf "%.2f", a/b}'; }
mb() { awk -v k="$1" 'BEGIN {if (k=="" || k==0) print "n/a"; else printf "%.1f", k/1024}'; }

# have_pkg PKG CMD: true when CMD exists, installing PKG first when root with apt-get.
have_pkg() {
  local pkg=$1 cmd=$2
  command -v "$cmd" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing $pkg"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends "$pkg" >>"$TMP/apt.log" 2>&1 ||
      { apt-get update -qq >>"$TMP/apt.log" 2>&1 && apt-get install -y -qq --no-install-recommends "$pkg" >>"$TMP/apt.log" 2>&1; } ||
      tail -3 "$TMP/apt.log" >&2
  fi
  command -v "$cmd" >/dev/null 2>&1
}

# --- tools -----------------------------------------------------------------------
HAVE_WRK=1 HAVE_QSTAT=1 HAVE_BLACKBOX=1
have_pkg wrk wrk || { HAVE_WRK=0; say "wrk is missing and could not be installed: skipping the HTTP probers (floor, exporter, blackbox)"; }
have_pkg qstat quakestat || { HAVE_QSTAT=0; say "qstat is missing and could not be installed: skipping qstat"; }
have_pkg prometheus-blackbox-exporter prometheus-blackbox-exporter || { HAVE_BLACKBOX=0; say "prometheus-blackbox-exporter is missing and could not be installed: skipping blackbox"; }
command -v ss >/dev/null 2>&1 || die "ss (iproute2) is needed to find free ports"

say "building into $TMP"
(cd "$ROOT" && go build -tags "$GO_TAGS" -o "$TMP/gameserver_exporter" .) || die "building the exporter failed"
if [ "$PORTABLE" = 1 ]; then
  (cd "$ROOT" && go build -tags "${GO_TAGS:+$GO_TAGS,}gse_portable" -o "$TMP/gameserver_exporter_portable" .) || die "building the portable exporter failed"
fi
(cd "$ROOT" && go build -tags tools -o "$TMP/fakefleet" ./bench/fakefleet && go build -tags tools -o "$TMP/floorprobe" ./bench/floorprobe &&
  go build -tags tools -o "$TMP/inflight" ./bench/inflight) || die "building the bench tools failed"

# Every process here holds many sockets: raise the soft limit to the hard one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
NOFILE=$(ulimit -n)

# --- throughput --------------------------------------------------------------------
start fleet "$TMP/fakefleet" -listen 127.0.0.1 -base-port "$FLEET_PORT" -count "$FLEET" -proto a2s -challenge -tcp
FLEET_PID=$PID
wait_until "$FLEET_PID" "the fleet" grep -q ready "$TMP/fleet.log" ||
  die "the fleet did not start (ports $FLEET_PORT.. taken? set FLEET_PORT): $(tail -2 "$TMP/fleet.log")"
say "$(head -1 "$TMP/fleet.log")"

for i in $(seq 0 $((FLEET - 1))); do echo "127.0.0.1:$((FLEET_PORT + i))"; done >"$TMP/targets.txt"

free_port EXPORTER_PORT "$HTTP_PORT"
free_port FLOOR_PORT "$HTTP_PORT"
free_port BLACKBOX_PORT "$HTTP_PORT"
free_port PORTABLE_PORT "$HTTP_PORT"
say "HTTP ports: exporter $EXPORTER_PORT, floor $FLOOR_PORT, blackbox $BLACKBOX_PORT, portable $PORTABLE_PORT"

EXPORTER_CONFIG=() # the built-in modules
if [ "$CHALLENGE_CACHE" = 0 ]; then
  printf 'modules:\n  a2s:\n    protocol: a2s\n    a2s: {challenge_cache: false}\n' >"$TMP/nocache.yml"
  EXPORTER_CONFIG=(--config.file="$TMP/nocache.yml")
fi
start exporter "$TMP/gameserver_exporter" --web.listen-address="127.0.0.1:$EXPORTER_PORT" "${EXPORTER_CONFIG[@]}" \
  --probe.min-interval=0 --probe.max-concurrent="$MAX_CONCURRENT" --log.level=warn
EXPORTER_PID=$PID
if [ "$PORTABLE" = 1 ]; then
  start portable "$TMP/gameserver_exporter_portable" --web.listen-address="127.0.0.1:$PORTABLE_PORT" "${EXPORTER_CONFIG[@]}" \
    --probe.min-interval=0 --probe.max-concurrent="$MAX_CONCURRENT" --log.level=warn
  PORTABLE_PID=$PID
fi
start floor "$TMP/floorprobe" -web.listen-address "127.0.0.1:$FLOOR_PORT"
FLOOR_PID=$PID
if [ "$HAVE_BLACKBOX" = 1 ]; then
  cat >"$TMP/blackbox.yml" <<'EOF'
modules:
  tcp_connect:
    prober: tcp
    timeout: 2s
EOF
  start blackbox prometheus-blackbox-exporter --config.file="$TMP/blackbox.yml" --web.listen-address="127.0.0.1:$BLACKBOX_PORT"
  BLACKBOX_PID=$PID
fi

# Each HTTP prober: name, port, module, pid. A prober whose first probe fails is skipped.
CONTENDERS=()
check() {
  local name=$1 port=$2 module=$3 pid=$4
  if ! wait_until "$pid" "$name" listening "$pid" "$port"; then
    say "$name did not start on port $port: skipping it ($(tail -1 "$TMP/$name.log"))"
    return
  fi
  local body
  body=$(curl -s "http://127.0.0.1:$port/probe?module=$module&target=127.0.0.1:$FLEET_PORT" || true)
  if ! grep -q '^probe_success 1' <<<"$body"; then
    say "$name: a probe of 127.0.0.1:$FLEET_PORT did not succeed: skipping it"
    return
  fi
  CONTENDERS+=("$name")
  eval "PORT_$name=$port MODULE_$name=$module PID_$name=$pid"
}
if [ "$HAVE_WRK" = 1 ]; then
  check floor "$FLOOR_PORT" a2s "$FLOOR_PID"
  check exporter "$EXPORTER_PORT" a2s "$EXPORTER_PID"
  [ "$PORTABLE" = 1 ] && check portable "$PORTABLE_PORT" a2s "$PORTABLE_PID"
  [ "$HAVE_BLACKBOX" = 1 ] && check blackbox "$BLACKBOX_PORT" tcp_connect "$BLACKBOX_PID"
fi
if [ "$HAVE_QSTAT" = 1 ]; then
  qout=$(quakestat -default a2s -raw , "127.0.0.1:$FLEET_PORT" || true)
  if grep -q '^A2S,.*,.*,.*,' <<<"$qout"; then
    CONTENDERS+=(qstat)
  else
    say "qstat: a query of 127.0.0.1:$FLEET_PORT did not succeed: skipping it"
  fi
fi
[ ${#CONTENDERS[@]} -gt 0 ] || die "no prober to measure"

declare -A RATES FAILS CPU
TCK=$(getconf CLK_TCK)
# cpu_ticks PID: the process' user + system time so far, in clock ticks (/proc/PID/stat
# fields 14 and 15; the command name, field 2, may hold spaces: cut after its ")").
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
# per_probe TICKS N: microseconds of CPU per probe.
per_probe() { awk -v t="$1" -v n="$2" -v hz="$TCK" 'BEGIN {if (n > 0) printf "%.1f", t / hz * 1e6 / n}'; }

# wrk_run NAME: one wrk run against an HTTP prober; records successful probes/s and the
# prober process' CPU time per answered probe.
wrk_run() {
  local name=$1 port module out rps ok fail rate pid t0 t1
  eval "port=\$PORT_$name module=\$MODULE_$name pid=\$PID_$name"
  t0=$(cpu_ticks "$pid")
  run_fg "$TMP/wrk.out" wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" -s "$BENCH/rotate.lua" "http://127.0.0.1:$port" -- "$FLEET_PORT" "$FLEET" "$module" ||
    say "round $ROUND: $name: wrk failed: $(tail -1 "$TMP/wrk.out")"
  t1=$(cpu_ticks "$pid")
  out=$(cat "$TMP/wrk.out")
  printf '== %s round %s\n%s\n' "$name" "$ROUND" "$out" >>"$RAW"
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  ok=$(sed -n 's/^rotate: ok=\([0-9]*\) fail=.*/\1/p' <<<"$out")
  fail=$(sed -n 's/^rotate: ok=[0-9]* fail=\([0-9]*\)/\1/p' <<<"$out")
  # Only successful probes count: a prober that fails fast must not look fast.
  ok=${ok:-0} fail=${fail:-0}
  rate=$(awk -v r="$rps" -v ok="$ok" -v f="$fail" 'BEGIN {printf "%.0f", (ok+f) ? r*ok/(ok+f) : 0}')
  RATES[$name]+="$rate "
  FAILS[$name]=$((${FAILS[$name]:-0} + fail))
  CPU[$name]+="$(per_probe $((t1 - t0)) "$ok") "
  printf 'cpu: %s ticks of %s/s over %s answered probes\n' $((t1 - t0)) "$TCK" "$ok" >>"$RAW"
  say "round $ROUND: $name: $rate probes/s ($ok ok, $fail failed), $(per_probe $((t1 - t0)) "$ok") us CPU per probe"
}

# qstat_run: quakestat over the whole fleet, again and again for DURATION; records
# answered queries/s (process start-up included: it is part of using qstat).
qstat_run() {
  local secs t0 t1 total=0 failed=0 runs=0 ok rate cpu=0 u s TIMEFORMAT='%3U %3S'
  secs=$(seconds "$DURATION")
  t0=$(date +%s.%N)
  while awk -v a="$t0" -v b="$(date +%s.%N)" -v s="$secs" 'BEGIN {exit !(b-a < s)}'; do
    # bash's time keyword around quakestat alone: its user and system seconds.
    { time quakestat -default a2s -maxsim "$QSTAT_MAXSIM" -sendinterval "$QSTAT_SENDINTERVAL" -raw , -f "$TMP/targets.txt" >"$TMP/qstat.out"; } 2>"$TMP/qstat.time"
    read -r u s <"$TMP/qstat.time"
    cpu=$(awk -v c="$cpu" -v u="$u" -v s="$s" 'BEGIN {print c + u + s}')
    ok=$(awk -F, '/^A2S,/ && NF >= 5' "$TMP/qstat.out" | wc -l)
    total=$((total + ok))
    failed=$((failed + FLEET - ok))
    runs=$((runs + 1))
  done
  t1=$(date +%s.%N)
  rate=$(awk -v n="$total" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", n/(b-a)}')
  printf '== qstat round %s\n%d runs of quakestat -default a2s -maxsim %s -sendinterval %s -f targets.txt (%d servers): %d answered, %d not, in %.2fs: %s queries/s\n' \
    "$ROUND" "$runs" "$QSTAT_MAXSIM" "$QSTAT_SENDINTERVAL" "$FLEET" "$total" "$failed" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b-a}')" "$rate" >>"$RAW"
  RATES[qstat]+="$rate "
  FAILS[qstat]=$((${FAILS[qstat]:-0} + failed))
  local per
  per=$(awk -v c="$cpu" -v n="$total" 'BEGIN {if (n > 0) printf "%.1f", c * 1e6 / n}')
  CPU[qstat]+="$per "
  printf 'cpu: %s s user + system of quakestat over %s answered queries\n' "$cpu" "$total" >>"$RAW"
  say "round $ROUND: qstat: $rate queries/s ($runs runs, $failed unanswered), $per us CPU per query"
}

if [ "$NEIGHBOUR" = 1 ]; then
  start neighbour bash -c 'while :; do :; done'
  NEIGHBOUR_PID=$PID
  say "a CPU-bound neighbour runs (pid $NEIGHBOUR_PID)"
fi
say "throughput: $ROUNDS round(s) of ${CONTENDERS[*]}, $DURATION each, $CONNS in flight over $FLEET servers"
# Each round starts with the next contender, so none always runs first or right
# after another one (a busy spell or the fleet's state after a run hits all alike).
for ROUND in $(seq "$ROUNDS"); do
  n=${#CONTENDERS[@]}
  for i in $(seq 0 $((n - 1))); do
    name=${CONTENDERS[$(((ROUND - 1 + i) % n))]}
    if [ "$name" = qstat ]; then qstat_run; else wrk_run "$name"; fi
  done
done

[ -n "${NEIGHBOUR_PID:-}" ] && stop "$NEIGHBOUR_PID"
stop "$EXPORTER_PID"
[ -n "${PORTABLE_PID:-}" ] && stop "$PORTABLE_PID"
stop "$FLOOR_PID"
[ -n "${BLACKBOX_PID:-}" ] && stop "$BLACKBOX_PID"
stop "$FLEET_PID"
printf '== fleet counters\n%s\n' "$(tail -1 "$TMP/fleet.log")" >>"$RAW"

# --- memory --------------------------------------------------------------------------
declare -A MEM
# mem_run NAME PORT PID: INFLIGHT probes of silent servers held at once against a prober.
mem_run() {
  local name=$1 port=$2 pid=$3 n=$4 metrics=() out
  [ "$name" = exporter ] && metrics=(-metrics "http://127.0.0.1:$port/metrics")
  run_fg "$TMP/inflight.out" "$TMP/inflight" -url "http://127.0.0.1:$port/probe?module=a2s" -base-port "$SILENT_PORT" \
    -count "$n" -n "$n" -pid "$pid" "${metrics[@]}" || say "memory: $name: inflight failed"
  out=$(cat "$TMP/inflight.out")
  printf '== memory: %s\n%s\n' "$name" "$out" >>"$RAW"
  MEM[$name]=$(grep "^RESULT" <<<"$out" || true)
  say "memory: $name: $(grep -v '^RESULT' <<<"$out" | tail -1)"
}
kv() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" ${MEM[$1]:-}"; }
# held NAME: probes NAME held in flight: the exporter's own gauge at its peak, the
# requests outstanding at the client for the floor.
held() {
  if [ "$1" = floor ]; then kv "$1" max_outstanding; else kv "$1" peak_gauge; fi
}
# perprobe NAME: KiB of RSS above idle per probe in flight.
perprobe() {
  local n
  n=$(held "$1")
  awk -v h="$(kv "$1" hwm_kb)" -v b="$(kv "$1" rss_before_kb)" -v n="$n" 'BEGIN {if (n>0) printf "%.1f", (h-b)/n}'
}

if [ "$SKIP_MEMORY" != 1 ]; then
  # The floor holds one UDP socket and one TCP connection per probe in flight; the
  # exporter (Linux, shared UDP sockets) one TCP connection and a UDP socket per 64.
  FLOOR_INFLIGHT=$INFLIGHT
  if [ $((2 * INFLIGHT + 200)) -gt "$NOFILE" ]; then
    FLOOR_INFLIGHT=$(((NOFILE - 200) / 2))
    say "ulimit -n is $NOFILE: holding $FLOOR_INFLIGHT probes in flight on the floor (2 descriptors each)"
  fi
  if [ $((INFLIGHT + INFLIGHT / 64 + 200)) -gt "$NOFILE" ]; then
    INFLIGHT=$(((NOFILE - 200) * 64 / 65))
    say "ulimit -n is $NOFILE: holding $INFLIGHT probes in flight instead"
  fi
  start silent "$TMP/fakefleet" -listen 127.0.0.1 -base-port "$SILENT_PORT" -count "$INFLIGHT" -proto silent
  SILENT_PID=$PID
  wait_until "$SILENT_PID" "the silent fleet" grep -q ready "$TMP/silent.log" ||
    die "the silent fleet did not start (ports $SILENT_PORT.. taken? set SILENT_PORT): $(tail -2 "$TMP/silent.log")"
  cat >"$TMP/mem.yml" <<EOF
modules:
  a2s:
    protocol: a2s
    timeout: $MEM_TIMEOUT
EOF
  start exporter-mem "$TMP/gameserver_exporter" --config.file="$TMP/mem.yml" --web.listen-address="127.0.0.1:$EXPORTER_PORT" \
    --probe.min-interval=0 --probe.max-concurrent="$MAX_CONCURRENT" --log.level=warn
  if wait_until "$PID" exporter listening "$PID" "$EXPORTER_PORT"; then
    mem_run exporter "$EXPORTER_PORT" "$PID" "$INFLIGHT"
  else
    say "the exporter did not start for the memory test: $(tail -1 "$TMP/exporter-mem.log")"
  fi
  stop "$PID"
  start floor-mem "$TMP/floorprobe" -web.listen-address "127.0.0.1:$FLOOR_PORT" -timeout "$MEM_TIMEOUT"
  if wait_until "$PID" floor listening "$PID" "$FLOOR_PORT"; then
    mem_run floor "$FLOOR_PORT" "$PID" "$FLOOR_INFLIGHT"
  else
    say "the floor did not start for the memory test: $(tail -1 "$TMP/floor-mem.log")"
  fi
  stop "$PID"
  stop "$SILENT_PID"
  printf '== silent fleet counters\n%s\n' "$(tail -1 "$TMP/silent.log")" >>"$RAW"
fi

# --- connection-heavy memory ------------------------------------------------------------
# Issue 38's shape, as a user meets it: wrk holds HEAVY_CONNS keep-alive connections,
# each sending /probe?module=a2s to the next of HEAVY_SERVERS silent servers, against a
# fresh exporter with default flags (built-in modules, their 5 s timeout, default
# min-interval and caps); peak = the exporter's VmHWM. Unlike the step above (one
# request per connection, each of its own server), every connection sends its next
# probe as soon as the last is answered, and the probes of one server share a query.
declare -A HV
if [ "$HEAVY" = 1 ] && [ "$HAVE_WRK" = 1 ]; then
  if [ $((HEAVY_CONNS + 200)) -gt "$NOFILE" ]; then
    HEAVY_CONNS=$((NOFILE - 200))
    say "ulimit -n is $NOFILE: $HEAVY_CONNS connections in the connection-heavy step instead"
  fi
  start silent-heavy "$TMP/fakefleet" -listen 127.0.0.1 -base-port "$SILENT_PORT" -count "$HEAVY_SERVERS" -proto silent
  SILENT_PID=$PID
  wait_until "$SILENT_PID" "the silent fleet" grep -q ready "$TMP/silent-heavy.log" ||
    die "the silent fleet did not start (ports $SILENT_PORT.. taken? set SILENT_PORT): $(tail -2 "$TMP/silent-heavy.log")"
  start exporter-heavy "$TMP/gameserver_exporter" --web.listen-address="127.0.0.1:$EXPORTER_PORT" --log.level=warn
  HEAVY_PID=$PID
  if wait_until "$HEAVY_PID" exporter listening "$HEAVY_PID" "$EXPORTER_PORT"; then
    HV[rss_before_kb]=$(awk '/^VmRSS:/ {print $2}' "/proc/$HEAVY_PID/status")
    # The exporter's own in-flight gauge, sampled while wrk runs: its peak.
    (
      peak=0
      while kill -0 "$HEAVY_PID" 2>/dev/null; do
        g=$(curl -s "http://127.0.0.1:$EXPORTER_PORT/metrics" | awk '/^gameserver_exporter_probes_in_flight / {print int($2)}')
        [ -n "$g" ] && [ "$g" -gt "$peak" ] && peak=$g && echo "$peak" >"$TMP/heavy.peak"
        sleep 0.5
      done
    ) &
    SAMPLER_PID=$!
    PIDS+=("$SAMPLER_PID")
    run_fg "$TMP/heavy.out" wrk -t"$THREADS" -c"$HEAVY_CONNS" -d"$HEAVY_DURATION" --timeout "$HEAVY_TIMEOUT" -s "$BENCH/rotate.lua" \
      "http://127.0.0.1:$EXPORTER_PORT" -- "$SILENT_PORT" "$HEAVY_SERVERS" a2s ||
      say "connection-heavy: wrk failed: $(tail -1 "$TMP/heavy.out")"
    HV[hwm_kb]=$(awk '/^VmHWM:/ {print $2}' "/proc/$HEAVY_PID/status")
    HV[peak_gauge]=$(cat "$TMP/heavy.peak" 2>/dev/null || echo 0)
    HV[answers]=$(awk '/requests in/ {print $1}' "$TMP/heavy.out")
    printf '== connection-heavy\n%s\n' "$(cat "$TMP/heavy.out")" >>"$RAW"
    say "connection-heavy: peak RSS $(mb "${HV[hwm_kb]}") MB, ${HV[peak_gauge]} queries in flight at most, ${HV[answers]:-0} answers"
  else
    say "the exporter did not start for the connection-heavy step: $(tail -1 "$TMP/exporter-heavy.log")"
  fi
  stop "$HEAVY_PID"
  stop "$SAMPLER_PID" 2>/dev/null || true
  stop "$SILENT_PID"
fi

# --- summary -------------------------------------------------------------------------
declare -A MED
for name in "${CONTENDERS[@]}"; do MED[$name]=$(median <<<"${RATES[$name]:-}"); done
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$ROOT" status --porcelain 2>/dev/null | head -1)" ] && commit+=" (with uncommitted changes)"
{
  echo "# Load benchmark: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "commit $commit; $(go version | cut -d' ' -f3-); $(nproc) CPUs; $(uname -sr); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "Command: \`QSTAT_SENDINTERVAL=$QSTAT_SENDINTERVAL GO_TAGS=$GO_TAGS PORTABLE=$PORTABLE NEIGHBOUR=$NEIGHBOUR CHALLENGE_CACHE=$CHALLENGE_CACHE ROUNDS=$ROUNDS DURATION=$DURATION THREADS=$THREADS CONNS=$CONNS FLEET=$FLEET INFLIGHT=$INFLIGHT MEM_TIMEOUT=$MEM_TIMEOUT HEAVY=$HEAVY HEAVY_CONNS=$HEAVY_CONNS HEAVY_SERVERS=$HEAVY_SERVERS HEAVY_DURATION=$HEAVY_DURATION bench/run.sh\`"
  echo
  echo "## Throughput"
  echo
  echo "$FLEET fake A2S servers with the S2C_CHALLENGE round trip, $CONNS probes in flight, $ROUNDS alternating round(s) of $DURATION."
  echo "Successful probes per second (qstat: answered queries per second); median of the rounds, then every round."
  echo
  echo "CPU: the prober process' user + system time over the run (/proc/PID/stat; qstat: bash's time of each quakestat) per answered probe, median of the rounds."
  echo
  echo "| prober | what it does per probe | median /s | rounds | failed | CPU us per probe | CPU rounds |"
  echo "|---|---|---:|---|---:|---:|---|"
  for name in "${CONTENDERS[@]}"; do
    case $name in
    floor) what="bare net/http + A2S_INFO with challenge (bench/floorprobe)" ;;
    exporter)
      what="gameserver_exporter /probe, module a2s (--probe.min-interval=0)"
      [ "$CHALLENGE_CACHE" = 0 ] && what="gameserver_exporter /probe, module a2s (--probe.min-interval=0, challenge_cache: false)"
      [ -n "$GO_TAGS" ] && what+=", built with -tags $GO_TAGS"
      ;;
    portable) what="the same, built with -tags gse_portable: the UDP path of every OS but Linux (udp_pooled.go)" ;;
    blackbox) what="blackbox_exporter $(prometheus-blackbox-exporter --version 2>&1 | awk 'NR==1 {print $3}') tcp_connect (TCP handshake only)" ;;
    qstat) what="quakestat -default a2s -maxsim $QSTAT_MAXSIM -sendinterval $QSTAT_SENDINTERVAL -f (1 process per $FLEET queries)" ;;
    esac
    echo "| $name | $what | ${MED[$name]} | ${RATES[$name]:-} | ${FAILS[$name]:-0} | $(median <<<"${CPU[$name]:-}") | ${CPU[$name]:-} |"
  done
  echo
  echo "Ratios: the median of the per-round ratios (each round measures every contender within"
  echo "seconds, so the pair sees the same machine), and the ratio of the medians above."
  echo
  echo "| ratio | median of per-round ratios | ratio of medians |"
  echo "|---|---:|---:|"
  for mine in exporter portable; do
    [ -n "${MED[$mine]:-}" ] || continue
    for other in floor blackbox qstat; do
      echo "| $mine / $other | $(paired $mine $other) | $(ratio "${MED[$mine]:-}" "${MED[$other]:-}") |"
    done
  done
  echo
  cpu_paired=$(paired_cpu exporter qstat)
  cpu_med=$(ratio "$(median <<<"${CPU[exporter]:-}")" "$(median <<<"${CPU[qstat]:-}")")
  echo "CPU per probe, exporter / qstat per query: $cpu_paired (median of the per-round ratios), $cpu_med (ratio of the medians); qstat's own figure spread $(spread "${CPU[qstat]:-}") us over the rounds, the exporter's $(spread "${CPU[exporter]:-}") us."
  echo
  echo "Issue 38's goals, as measured here:"
  echo
  echo "| goal | measured | met |"
  echo "|---|---:|---|"
  goal ">=" 1.3 "exporter / floor" "$(paired exporter floor)"
  goal ">=" 5 "exporter / blackbox" "$(paired exporter blackbox)"
  goal ">=" 1.5 "portable / floor" "$(paired portable floor)"
  goal ">=" 6 "portable / blackbox" "$(paired portable blackbox)"
  goal "<=" 0.8 "CPU per probe, exporter / qstat (median of the per-round ratios)" "$cpu_paired"
  goal "<=" 128 "peak RSS MB, $INFLIGHT probes in flight (bench/inflight)" "$(mb "$(kv exporter hwm_kb)")"
  goal "<=" 128 "peak RSS MB, $HEAVY_CONNS keep-alive connections (wrk)" "$(mb "${HV[hwm_kb]:-}")"
  if [ "$SKIP_MEMORY" != 1 ]; then
    echo
    echo "## Memory"
    echo
    echo "$INFLIGHT /probe requests held in flight at once against $INFLIGHT silent UDP servers (probe timeout $MEM_TIMEOUT; the floor $FLOOR_INFLIGHT, two descriptors each)."
    echo "Peak RSS is the kernel's VmHWM of the prober's process; in flight: the exporter's own probes_in_flight gauge at its peak (floor: requests outstanding at the client)."
    echo
    echo "| prober | idle RSS MB | peak RSS MB | in flight | KiB per probe in flight |"
    echo "|---|---:|---:|---:|---:|"
    for name in exporter floor; do
      [ -n "${MEM[$name]:-}" ] || continue
      inflight=$(held "$name")
      per=$(perprobe "$name")
      echo "| $name | $(mb "$(kv "$name" rss_before_kb)") | $(mb "$(kv "$name" hwm_kb)") | $inflight | $per |"
    done
    echo
    echo "| ratio | value |"
    echo "|---|---:|"
    echo "| exporter / floor KiB per probe in flight | $(ratio "$(perprobe exporter)" "$(perprobe floor)") |"
  fi
  if [ -n "${HV[hwm_kb]:-}" ]; then
    echo
    echo "## Memory, connection-heavy"
    echo
    echo "wrk -c$HEAVY_CONNS -d$HEAVY_DURATION --timeout $HEAVY_TIMEOUT: keep-alive connections, each sending /probe?module=a2s to the next of $HEAVY_SERVERS silent servers, against a fresh exporter with default flags (HEAVY_CONNS=$HEAVY_CONNS HEAVY_SERVERS=$HEAVY_SERVERS)."
    echo
    echo "| idle RSS MB | peak RSS MB (VmHWM) | queries in flight at peak (gauge) | answers |"
    echo "|---:|---:|---:|---:|"
    echo "| $(mb "${HV[rss_before_kb]}") | $(mb "${HV[hwm_kb]}") | ${HV[peak_gauge]} | ${HV[answers]:-0} |"
  fi
  echo
  echo "Raw output: bench/results/latest-raw.log. The machine may be busy: compare ratios from one run, not absolute numbers across runs."
} >"$RESULTS/latest.md"
echo
cat "$RESULTS/latest.md"
