#!/usr/bin/env bash
# The tiny model's heads across training runs: trains the shipped recipe
# (make train-tiny's settings) from several seeds, measures each run's heads as
# "Several readers at once" does, and prints a table beside the chapter's figures.
#
#   make seed-study                     seeds 1 to 8
#   make seed-study SEEDS="1 2 3 9"     these seeds
#   bash tests/studies/tiny_seed_study.sh BUILD SEED...
#
# Checkpoints go to BUILD/seed_study/seed<N>.tiny with the trainer's log beside
# them; a seed whose checkpoint is there already is measured, not retrained, so
# an interrupted study picks up where it stopped. Needs the training text.
#
# Nearness to the chapter, the sum of each figure's relative difference:
#   |previous - 39|/39 + |space - 20|/20                       (the best head of each)
#   + |near_lo - 80|/80 + |near_hi - 85|/85                    (block 1, over its heads)
#   + |lookback_lo - 3.6|/3.6 + |lookback_hi - 6.6|/6.6       (block 2, over its heads)
# The pick is the nearest seed whose validation loss is at most 1.75.
set -u
build=${1:-build}
shift || true
seeds=${*:-1 2 3 4 5 6 7 8}
cd "$(dirname "$0")/../.."
# make train-tiny's recipe, which the Makefile passes in as TINY_RECIPE.
read -r -a recipe <<< "${TINY_RECIPE:---steps 12000 --batch 32 --lr 0.01}"
out=$build/seed_study
mkdir -p "$out"

for seed in $seeds; do
  case "$seed" in *[!0-9]* | '') echo "seed-study: a seed is a whole number, got '$seed'" >&2; exit 2 ;; esac
  if [ ! -f "$out/seed$seed.tiny" ] || ! grep -q '^done:' "$out/seed$seed.log" 2> /dev/null; then
    echo "seed $seed: training (the trainer's progress follows)" >&2
    "$build/chapter_tiny/tiny_train" "${recipe[@]}" --seed "$seed" --out "$out/seed$seed.tiny" \
      2>&1 | tee "$out/seed$seed.log" | grep --line-buffered -E '^(step|done)' >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "seed-study: training seed $seed failed: $(tail -n 1 "$out/seed$seed.log")" >&2; exit 2; }
  fi
done

echo "| seed | validation loss | previous (best head) | space (best head) | block 1 near | block 2 look-back | distance |"
echo "|---|---|---|---|---|---|---|"
echo "| chapter | | 39 of 53 | 20 of 29 | about 80–85% | 3.6 to 6.6 | |"
best="" best_distance=""
for seed in $seeds; do
  loss=$(sed -n 's/.*validation loss \([0-9.]*\) nats.*/\1/p' "$out/seed$seed.log" | tail -n 1)
  NO_COLOR=1 "$build/chapter_tiny/tiny_3_Several_Readers" --model "$out/seed$seed.tiny" > "$out/seed$seed.heads" ||
    { echo "seed-study: cannot read the heads of seed $seed" >&2; exit 2; }
  # The statistics rows: block B head H  P of 53  S of 29  N%  L
  row=$(awk -v loss="$loss" '
    $1 == "block" && $6 == "of" && $9 == "of" {
      b = $2; h = $4; p = $5 + 0; s = $8 + 0; near = $11 + 0; back = $12 + 0
      if (p > prev || prev == "") { prev = p; prev_head = b "." h }
      if (s > space || space == "") { space = s; space_head = b "." h }
      if (b == 1) { if (n1lo == "" || near < n1lo) n1lo = near; if (n1hi == "" || near > n1hi) n1hi = near }
      if (b == 2) { if (l2lo == "" || back < l2lo) l2lo = back; if (l2hi == "" || back > l2hi) l2hi = back }
    }
    function abs(x) { return x < 0 ? -x : x }
    END {
      d = abs(prev - 39) / 39 + abs(space - 20) / 20 + abs(n1lo - 80) / 80 + abs(n1hi - 85) / 85 \
        + abs(l2lo - 3.6) / 3.6 + abs(l2hi - 6.6) / 6.6
      printf "%s|%.4f|%d of 53 (block %s head %s)|%d of 29 (block %s head %s)|%.1f%% to %.1f%%|%.2f to %.2f|%.3f\n", \
        loss, d, prev, substr(prev_head, 1, 1), substr(prev_head, 3), space, substr(space_head, 1, 1), \
        substr(space_head, 3), n1lo, n1hi, l2lo, l2hi, d
    }' "$out/seed$seed.heads")
  IFS='|' read -r loss distance previous space near lookback shown <<< "$row"
  echo "| $seed | $loss | $previous | $space | $near | $lookback | $shown |"
  if awk -v l="$loss" 'BEGIN { exit !(l <= 1.75) }' &&
     { [ -z "$best" ] || awk -v d="$distance" -v b="$best_distance" 'BEGIN { exit !(d < b) }'; }; then
    best=$seed best_distance=$distance
  fi
done
echo
if [ -n "$best" ]; then echo "nearest the chapter with validation loss <= 1.75: seed $best (distance $best_distance)"
else echo "no seed reached validation loss <= 1.75"; fi
