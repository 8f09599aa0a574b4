#!/usr/bin/env bash
# ex4_Parameter_Count's options: --help works, and bad values are one line on
# stderr with exit status 2, never a crash or a wrong count.
set -u
build=${1:-build}
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
program=$build/chapter20/exercises/ex4_Parameter_Count
failures=0

# expect WHAT STATUS TEXT ARGS...: the program exits with STATUS and prints TEXT.
expect() {
  local what=$1 want=$2 text=$3 got
  shift 3
  out=$($RUN "$program" "$@" 2>&1 < /dev/null); got=$?
  if [ "$got" -eq "$want" ] && grep -qF -- "$text" <<< "$out"; then echo "ok: $what"
  else echo "FAILED: $what: want status $want and '$text', got status $got: $out"; failures=$((failures + 1)); fi
}

expect "--help prints the usage" 0 "usage: ex4_Parameter_Count" --help
expect "a word for a size is refused" 2 "--d-k expects a whole number, got 'x'" --d-k x
expect "a size of 0 is refused" 2 "--d-model must be from 1 to 100000, got 0" --d-model 0
expect "an unknown option is refused" 2 "unknown option '--heads'" --heads 8
expect "a value is required" 2 "--d-v needs a value" --d-v
expect "--name=value works" 0 "= 36,864 per head" --d-model=128 --d-k=64 --d-v=160
[ "$failures" -eq 0 ]
