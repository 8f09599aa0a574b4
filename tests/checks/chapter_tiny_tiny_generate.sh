#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_generate.sh: chapter_tiny/tiny_generate with the shipped checkpoint.
# --score is the mean of the -log p that --each prints, each of which is the
# -log of the probability printed beside it; a temperature of 0 always takes
# the most likely letter. (Bad input: tests/fixtures/bad_input.tsv.)
set -u
build=${1:-build}
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
generate=$build/chapter_tiny/tiny_generate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }
sentence="The bag didn't fit in the car because it was too small"

$RUN "$generate" --score "$sentence" --each > "$work/each" || bad "--score --each exited with status $?"
awk '
  $1 ~ /^[0-9]+$/ { n++; p = $(NF - 1); sum += $NF; if ((-log(p) - $NF) ^ 2 > 1e-10) bad = bad " " $1 }
  /^mean next-character cross-entropy:/ { mean = $4; count = $(NF - 1) }
  END {
    printf "%d letters, mean of the printed -log p %.6f, printed score %s\n", n, sum / n, mean
    if (n != 53 || count != 53) { print "FAILED: expected 53 predictions"; exit 1 }
    if ((sum / n - mean) ^ 2 > 1e-11) { print "FAILED: the score is not the mean of the -log p"; exit 1 }
    if (bad != "") { print "FAILED: -log p disagrees with p at" bad; exit 1 }
  }' "$work/each" || status=1

# At temperature 0 every letter is the most likely one: scoring the output,
# each printed p must be the largest, so at least every p is above 1/V.
$RUN "$generate" --prompt "ROMEO:" --length 40 --temperature 0 > "$work/greedy" || bad "--temperature 0 failed"
# (tr: without the CR that ends lines on Windows.)
$RUN "$generate" --score "$(tr -d '\r' < "$work/greedy" | head -c 46)" --each > "$work/greedy.each" || bad "scoring the greedy text failed"
awk '$1 ~ /^[0-9]+$/ && $1 >= 6 && $(NF - 1) < 1 / 65 { print "FAILED: greedy letter " $1 " had p " $(NF - 1); exit 1 }' \
  "$work/greedy.each" || status=1
# Same seed, same text; another seed, another text.
a=$($RUN "$generate" --length 80 --seed 5) b=$($RUN "$generate" --length 80 --seed 5) c=$($RUN "$generate" --length 80 --seed 6)
[ "$a" = "$b" ] || bad "the same seed gave different text"
[ "$a" != "$c" ] || bad "seeds 5 and 6 gave the same text"
exit $status
