#!/usr/bin/env bash
# tests/bench/bench_web.sh (make bench): make web's pages, in headless Chromium.
#   - the time from opening a listing's page (file://) to its first output;
#   - how much slower the WebAssembly build runs than the native one: Lab 5 at
#     20,000 updates, and the generator writing 1,000 letters; each the best of
#     RUNS wall-clock runs (the run least held up by other work on the machine),
#     the page's from the start of its run to its end, worker start-up included
#     (and shown apart: from the start to main, the worker made and the program compiled);
#     the native build at -O2, as make builds the timed programs;
#   - the size of build/web, as it is and with each file gzipped (as a static host
#     sends it): goal at most 5 MB and 1.5 MB.
# Without emscripten (make web) or Chromium it says so and measures nothing.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
chromium=${CHROMIUM:-/usr/bin/chromium}
RUNS=${RUNS:-3}
if ! command -v em++ > /dev/null || [ ! -x "$chromium" ] || ! command -v node > /dev/null; then
  echo "no em++, Chromium or Node.js here: the web pages are not measured"
  exit 0
fi
make --no-print-directory web BUILD="$build" > /dev/null || exit 1

# The native programs at -O2 (Lab 5 is built at -Og by make; the generator is already at -O2).
native=$build/bench/web
mkdir -p "$native"
for program in chapter15/15_2_Lab5_Training chapter_tiny/tiny_generate; do
  out=$native/$(basename "$program")
  [ "$out" -nt "$program.cpp" ] && [ "$out" -nt common/cli.hpp ] && continue
  ${CXX:-g++} -std=c++17 -O2 -ffp-contract=off -Icommon -I"$(dirname "$program")" -DSOURCE_ROOT="\"$PWD\"" \
    "$program.cpp" -o "$out" -pthread || exit 1
done
best_seconds() {  # best_seconds PROGRAM ARGS...: the fastest of RUNS runs, in seconds
  local best= t
  for _ in $(seq "$RUNS"); do
    t=$( { TIMEFORMAT=%R; time "$@" > /dev/null; } 2>&1 )
    best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
  done
  echo "$best"
}
echo "load average before the runs: $(cut -d ' ' -f 1 /proc/loadavg 2> /dev/null || echo unknown) on $(nproc 2> /dev/null || echo '?') cores"
lab5_native=$(best_seconds "$native/15_2_Lab5_Training" --updates 20000)
generate_native=$(best_seconds "$native/tiny_generate" --length 1000)

times=$(node tests/web/bench.js "$build/web" "$chromium" "$RUNS" \
  chapter20/106_Projections "" chapter15/15_2_Lab5_Training "--updates 20000" chapter_tiny/tiny_generate "--length 1000") || exit 1
echo "$times"
first=$(echo "$times" | awk '$1 == "chapter20/106_Projections" { print $2 }')
seconds() { echo "$times" | awk -v p="$1" -v c="$2" '$1 == p { print $c / 1000 }'; }  # seconds PROGRAM COLUMN
lab5_web=$(seconds chapter15/15_2_Lab5_Training 3)
generate_web=$(seconds chapter_tiny/tiny_generate 3)

bytes=$(find "$build/web" -type f -exec cat {} + | wc -c)
gzipped=$(find "$build/web" -type f | while read -r f; do gzip -9c "$f" | wc -c; done | awk '{ s += $1 } END { print s }')
pages=$(find "$build/web" -name '*.html' | wc -l)

cmd="tests/bench/bench_web.sh: headless Chromium, file://, best of $RUNS"
echo "web page, opening listing 106 to its first output: $first ms  ($cmd)"
ratio() {  # ratio NAME WEB_SECONDS NATIVE_SECONDS START_UP_SECONDS
  awk -v name="$1" -v w="$2" -v n="$3" -v s="$4" -v c="$cmd" 'BEGIN {
    printf "web %s, wasm over native: %.1f x  (%s: %.2f s in the page, %.2f s of it start-up; %.2f s native -O2)\n",
           name, w / n, c, w, s, n }'
}
ratio "Lab 5 --updates 20000" "$lab5_web" "$lab5_native" "$(seconds chapter15/15_2_Lab5_Training 4)"
ratio "tiny_generate --length 1000" "$generate_web" "$generate_native" "$(seconds chapter_tiny/tiny_generate 4)"
awk -v b="$bytes" -v g="$gzipped" -v p="$pages" -v d="$build/web" 'BEGIN {
  printf "web folder size: %.2f MB, %d pages  (find %s -type f: bytes; goal 5 MB)\n", b / 1e6, p, d
  printf "web folder size gzipped: %.2f MB  (gzip -9 of each file of %s; goal 1.5 MB)\n", g / 1e6, d }'
