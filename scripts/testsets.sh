#!/usr/bin/env bash
# Splits the module's packages for `make test`: "race" prints those whose tests run
# under the race detector, "plain" the others, "waiting" the harnesses run beside
# them (also under the detector); "norace" prints, for the race set,
# the packages with tests built only without the detector (`//go:build !race`: the
# stack-size tests, whose frames the detector's instrumentation changes) and then
# a -run pattern naming those tests, so that they run too.
#
# The detector finds a race only where two goroutines touch the same memory, so it
# earns its cost (tests 2-10x slower, a second build of every test binary) where
# the code under test makes goroutines or shares memory: a package whose non-test
# code starts goroutines, uses sync or sync/atomic or channels, and the test
# harnesses that drive the whole exporter (the root, e2e, hostile). The rest are
# decoders: one probe runs one sequence of calls, and the collector, web and wire
# (all under -race) are where probes meet. Their plain test binaries also serve the
# benchmark smoke run, which would otherwise build them again.
set -eu
want=${1:?usage: testsets.sh race|plain|norace|waiting}
# The waiting set: harnesses whose tests mostly wait for probe deadlines (hostile:
# 150 s of wall time for 25 s of CPU under the detector). make test runs them
# beside the other steps rather than before them; they are not in the race set.
waiting='^\./hostile$'
if [ "$want" = waiting ]; then
  echo ./hostile
  exit 0
fi
if [ "$want" = norace ]; then
  files=$(for p in $("$0" race); do grep -l '^//go:build !race' "$p"/*_test.go 2>/dev/null || true; done)
  [ -z "$files" ] && exit 0
  for f in $files; do dirname "$f"; done | sort -u
  echo "-run=^($(grep -ho '^func Test[A-Za-z0-9_]*' $files | sed 's/^func //' | paste -sd'|'))\$"
  exit 0
fi
harness='^(\.|\./e2e|\./hostile)$'
go list -tags tools -f '{{.Dir}}' ./... | while read -r dir; do
  rel=./${dir#"$PWD"/}
  [ "$dir" = "$PWD" ] && rel=.
  set -- "$dir"/*.go
  src=()
  for f in "$@"; do case $f in *_test.go) ;; *) src+=("$f") ;; esac; done
  if [[ $rel =~ $waiting ]]; then
    continue
  elif [[ $rel =~ $harness ]] ||
     { [ ${#src[@]} -gt 0 ] && grep -qE '(^|[^[:alnum:]_."])go [[:alnum:]_(]|sync\.|atomic\.|chan ' "${src[@]}"; }; then
    set=race
  else
    set=plain
  fi
  [ "$set" = "$want" ] && echo "$rel"
done
exit 0
