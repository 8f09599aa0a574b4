#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_train_fast.sh: the fast build of tiny_train (-mavx2 where the machine
# has AVX2: eight floats per instruction) writes the same checkpoint bytes as the
# portable build (at -O0, without AVX2, with chapter_tiny/lanes.hpp's plain struct),
# with 1 thread and with 2. The speed work may not change one bit.
set -u
# The fast and portable builds are this machine's; make cross checks the goldens there instead.
if [ -n "${RUN:-}" ]; then echo "not under make cross: the fast build is for this machine"; exit 77; fi
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }

bash "$(dirname "$0")/../fixtures/tiny_text.sh" > "$work/text.txt"

run() {  # run NAME PROGRAM THREADS: a short training run writing $work/NAME.tiny
  "$2" --text "$work/text.txt" --out "$work/$1.tiny" --steps 3 --batch 4 --lr 0.01 --warmup 2 \
    --eval-every 3 --eval-windows 2 --threads "$3" > "$work/$1.log" 2>&1 || bad "$1 exited with status $?"
}

run fast1 "$build/chapter_tiny/tiny_train" 1
run fast2 "$build/chapter_tiny/tiny_train" 2
run portable "$build/portable/tiny_train" 2
for name in fast2 portable; do
  cmp -s "$work/fast1.tiny" "$work/$name.tiny" || bad "$name.tiny differs from fast1.tiny"
done
[ "$status" -eq 0 ] && echo "fast build (1 and 2 threads) and portable build (-O0, plain struct): the same $(wc -c < "$work/fast1.tiny") bytes"
exit $status
