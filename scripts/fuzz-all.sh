#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a fixed time each (default 3s). A crash
# fails the run and leaves its input under the package's testdata/fuzz/ to commit as
# a regression test.
set -eu
t=${1:-3s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
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
