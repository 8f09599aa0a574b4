#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_5_Kept_Keys.sh: the cached generator against the plain one.
# - Each golden of tiny_5_Kept_Keys, and the program's runs at other seeds,
#   temperatures and prompts (shorter than the window, exactly 64 letters,
#   longer), begin with exactly what tiny_generate prints with the same options:
#   the goldens' letters come from the plain generator, not from the cached one.
# - The multiply-adds it prints equal a count made here from the model's sizes
#   alone (W = 32, F = 128, 2 blocks, 64 seats, V read from the checkpoint),
#   and re-reading a full window equals 64 tokens of tests/bench/bench_tiny.sh's
#   FORWARD_FLOPS (2 FLOPs a multiply-add).
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
lesson=$build/chapter_tiny/tiny_5_Kept_Keys generate=$build/chapter_tiny/tiny_generate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }
lf() { tr -d '\r' < "$1" > "$1.lf" && mv "$1.lf" "$1"; }  # Wine's programs end lines in CRLF
runs=0

# The model's sizes; V from the checkpoint's header ("TINY", version, V, ...: little-endian).
W=32 F=128 BLOCKS=2 SEATS=64
V=$(od -An -tu4 -j8 -N4 chapter_tiny/shakespeare.tiny | tr -d ' ')
forward_flops=$(sed -n 's/^FORWARD_FLOPS=\([0-9]*\)$/\1/p' tests/bench/bench_tiny.sh)

# expected PROMPT_LENGTH LENGTH: "with without" multiply-adds in all, letter by
# letter: a letter in seat t costs, per block, the four matrices and 2·W·(t+1)
# for attention, then the output table; a window of T letters re-read costs
# the sum over its seats; with the cache, a letter costs one seat, except the
# first (the prompt read in) and every letter once the window has slid.
expected() {
  awk -v P="$1" -v n="$2" -v W=$W -v F=$F -v B=$BLOCKS -v S=$SEATS -v V="$V" 'BEGIN {
    for (t = 0; t < S; t++) { c[t] = B * (W * 3 * W + W * W + W * F + F * W + 2 * W * (t + 1)) + W * V; sum[t] = (t ? sum[t - 1] : 0) + c[t] }
    for (k = 1; k <= n; k++) {
      N = P + k - 1; T = N < S ? N : S
      without += sum[T - 1]; with += (k == 1 || N > S) ? sum[T - 1] : c[T - 1]
    }
    printf "%.0f %.0f\n", with, without }'
}

# compare NAME ARGS...: the lesson's text is tiny_generate's, and its count is expected's.
compare() {
  local name=$1; shift
  local prompt=ROMEO: length=200 i
  for ((i = 1; i <= $#; i++)); do
    case "${!i}" in --prompt) ((i++)); prompt=${!i} ;; --length) ((i++)); length=${!i} ;; esac
  done
  runs=$((runs + 1))
  $RUN "$generate" "$@" > "$work/plain" 2> "$work/err" || { bad "$name: tiny_generate $*: $(head -c 200 "$work/err")"; return; }
  $RUN "$lesson" "$@" > "$work/kept" 2> "$work/err" || { bad "$name: tiny_5_Kept_Keys $*: $(head -c 200 "$work/err")"; return; }
  lf "$work/plain"
  lf "$work/kept"
  local size; size=$(wc -c < "$work/plain")
  cmp -s "$work/plain" <(head -c "$size" "$work/kept") || { bad "$name: the letters differ from tiny_generate $*"; return; }
  tail -c +$((size + 1)) "$work/kept" > "$work/report"
  local have want
  have=$(sed -n 's/^In all: \([0-9]*\) multiply-adds with the cache, \([0-9]*\) without.*/\1 \2/p' "$work/report")
  want=$(expected "${#prompt}" "$length")
  [ "$length" -eq 0 ] && want=""
  [ "$have" = "$want" ] || bad "$name: multiply-adds (with, without) printed '$have', counted from the sizes '$want'"
}

# Every golden, with its own arguments.
for golden in tests/golden/chapter_tiny/tiny_5_Kept_Keys*.txt; do
  [ -f "$golden" ] || { bad "no golden tests/golden/chapter_tiny/tiny_5_Kept_Keys.txt"; continue; }
  name=$(basename "$golden" .txt) args=()
  [ -f "${golden%.txt}.args" ] && eval "args=($(cat "${golden%.txt}.args"))"
  compare "$name" "${args[@]}"
  # The golden itself, not only today's run, begins with the plain generator's letters.
  size=$(wc -c < "$work/plain")
  cmp -s "$work/plain" <(tr -d '\r' < "$golden" | head -c "$size") || bad "$golden does not begin with tiny_generate's letters"
done

# Other seeds, temperatures and prompts, each across the window's edge.
long="First Citizen: Before we proceed any further, hear me speak. All: Speak, speak."
compare seed2 --seed 2 --length 90
compare greedy --temperature 0 --length 80
compare hot --seed 3 --temperature 1.5 --length 80
compare one-letter --prompt T --seed 4 --length 70
compare 64-letters --prompt "${long:0:64}" --seed 5 --length 3
compare long-prompt --prompt "$long" --seed 6 --length 5
compare none --length 0

# Re-reading a full window is 64 tokens of the forward pass bench_tiny.sh counts.
$RUN "$lesson" --length 80 > "$work/kept" 2> "$work/err"
lf "$work/kept"
full=$(sed -n 's/^  letters [0-9]* to [0-9]* *window full: made again *[0-9]* *\([0-9]*\)$/\1/p' "$work/kept")
[ -n "$forward_flops" ] && [ "$full" = $((SEATS * forward_flops / 2)) ] ||
  bad "re-reading a full window: printed '$full', bench_tiny.sh's 64 x $forward_flops / 2 = $((SEATS * forward_flops / 2))"

[ "$status" -eq 0 ] && echo "$runs runs: the letters are tiny_generate's and the multiply-adds the sizes' (V = $V); a full window re-read is $full"
exit $status
