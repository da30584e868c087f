#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a fixed time each (default 3s).
set -eu
t=${1:-3s}
go list -f '{{.ImportPath}} {{.Dir}}' ./... | while read -r pkg dir; do
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    echo "fuzz $pkg $f ($t)"
    go test "$pkg" -run '^$' -fuzz "^$f\$" -fuzztime "$t" >/tmp/gse-fuzz.log 2>&1 || { cat /tmp/gse-fuzz.log; exit 1; }
  done
done
