#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a fixed time each (default 3s). A crash
# fails the run and leaves its input under the package's testdata/fuzz/ to commit as
# a regression test.
#
# With FUZZ_SINCE=REV only the packages with a Go file changed since REV (commits
# and the work tree) are fuzzed: every target's seed corpus already runs in
# `make test`, so CI spends its fuzzing time on the code that changed. CI passes
# the last commit a run on that machine fuzzed whole, or HEAD~FUZZ_DEPTH (.ci/run).
#
# With FUZZ_BUDGET=SECONDS no target starts once that much time has passed, and
# the packages go newest change first: a change to many packages fuzzes what
# changed last, and says what it left for a later run.
set -eu
t=${1:-3s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
changed=
if [ -n "${FUZZ_SINCE:-}" ]; then
  changed=$( { git diff --name-only "$FUZZ_SINCE" -- '*.go'; git ls-files --others --exclude-standard -- '*.go'; } |
    xargs -r -n1 dirname | sort -u)
  echo "fuzz: packages changed since $FUZZ_SINCE: $(echo "$changed" | grep -c . || true)"
fi
start=$SECONDS
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  rel=${dir#"$PWD"/}
  [ "$dir" = "$PWD" ] && rel=.
  if [ -n "${FUZZ_SINCE:-}" ] && ! grep -qxF "$rel" <<<"$changed"; then
    continue
  fi
  # newest change first (the work tree's changes count as now)
  when=$(git log -1 --format=%ct -- "$rel" 2>/dev/null)
  [ -n "$(git status --porcelain -- "$rel" 2>/dev/null)" ] && when=$(date +%s)
  echo "${when:-0} $pkg $dir"
done | sort -rn | while read -r _ pkg dir; do
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    if [ -n "${FUZZ_BUDGET:-}" ] && [ $((SECONDS - start)) -ge "$FUZZ_BUDGET" ]; then
      echo "fuzz: budget of ${FUZZ_BUDGET}s spent: left $pkg $f for a later run"
      continue
    fi
    echo "fuzz $pkg $f ($t)"
    # Short minimisation: with a fuzz time of seconds, minimising a new input can
    # outlast it.
    if ! go test "$pkg" -run '^$' -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 50x >"$log" 2>&1; then
      # Go's fuzzer can end a short run with "context deadline exceeded" when the
      # deadline falls in its own bookkeeping; that is no finding: no input was written.
      if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
        echo "  (the fuzzer's own deadline hiccup, no failing input: not a finding)"
        continue
      fi
      cat "$log"
      exit 1
    fi
  done
done
