#!/usr/bin/env bash
# make bench: runs every tests/bench_*.sh in turn. Timings live here, never in make test.
# (AB=other/tiny_train: bench_tiny.sh times it against this build's, run for run.)
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
status=0
for bench in tests/bench_*.sh; do
  [ -f "$bench" ] || continue
  echo "== $bench"
  bash "$bench" "$build" || status=1
done
exit $status
