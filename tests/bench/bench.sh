#!/usr/bin/env bash
# make bench: runs every tests/bench/bench_*.sh in turn. Timings live here, never in make test.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
status=0
for bench in tests/bench/bench_*.sh; do
  [ -f "$bench" ] || continue
  echo "== $bench"
  bash "$bench" "$build" || status=1
done
exit $status
