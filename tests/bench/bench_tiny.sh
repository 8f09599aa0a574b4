#!/usr/bin/env bash
# tests/bench/bench_tiny.sh (make bench): how fast the tiny Shakespeare model trains and runs.
#
# FLOPs per token, counting a multiply-add as 2 and leaving out the element-wise
# work (levels, GELU, softmax, AdamW), for W = 32, F = 128, V = 65, 64 seats:
#   per block, the four matrices: 2 (W·3W + W·W + W·F + F·W) = 24,576
#   per block, attention at position t: 2·W·(t+1) for scores + 2·W·(t+1) for the
#     values; over 64 positions the mean t+1 is 32.5, so 4·32·32.5 = 4,160
#   two blocks: 57,472; the output table 2·W·V = 4,160; forward = 61,632
#   training = forward + backward (twice the forward: one product for the
#     input's gradient, one for the knob's) = 3 x 61,632 = 184,896
# The trainer and the generator run on a text the script writes, so this needs
# nothing beside the repository; their speed does not depend on the text.
#
# The machine's own limit comes first: tests/bench/peak.cpp times independent
# chains of a multiply and an add (the only arithmetic the model's products
# use: no fused multiply-add) at each vector width, on 1 and 2 threads. Each
# rate below is then also given as a share of the widest width's peak for the
# same number of threads.
#
# make bench AB=path/to/other/tiny_train: also times that trainer (one built
# from an earlier commit, say) against this build's, alternating one run of each
# (AB_RUNS=7 of each, 1 and 2 threads; which goes first alternates too), so that
# both see the same load on a shared machine; prints each one's median and best
# and the new one's as a share of the other's (also the median over the pairs).
set -u
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
FORWARD_FLOPS=61632
TRAIN_FLOPS=184896

# 65 distinct letters, like tiny Shakespeare, in 200 KB of text.
awk 'BEGIN { srand(1); s = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;:!?-\x27&$3\n";
             for (i = 0; i < 200000; i++) printf "%s", substr(s, int(rand() * 65) + 1, 1) }' > "$work/text.txt"

# Other work on the machine slows the threads down: say how busy it was.
echo "load average before the runs: $(cut -d ' ' -f 1 /proc/loadavg 2>/dev/null || echo unknown) on $(nproc 2>/dev/null || echo '?') cores"

"$build/tests/bench/peak" | tee "$work/peak.txt"
# The widest width's GFLOP/s on 1 and on 2 threads (the last line peak printed).
peak1=$(tail -n 1 "$work/peak.txt" | sed 's/.*: *\([0-9.]*\) GFLOP.s on 1 thread, *\([0-9.]*\) on 2/\1/')
peak2=$(tail -n 1 "$work/peak.txt" | sed 's/.*: *\([0-9.]*\) GFLOP.s on 1 thread, *\([0-9.]*\) on 2/\2/')
# Result lines ("name: value unit  (command)"), which bench.sh collects into RESULTS.md.
awk -v cmd="$build/tests/bench/peak" '{ sub(/:$/, "", $4); w = $2 " lane" ($2 > 1 ? "s" : "") " " $4
  printf "peak, %s, 1 thread: %s GFLOP/s  (%s)\npeak, %s, 2 threads: %s GFLOP/s  (%s)\n", w, $5, cmd, w, $10, cmd }' "$work/peak.txt"

# Other work on the machine moves a single run by 10-20%: each rate below is the
# best of RUNS runs of 100 steps (the usual way to time code on a shared machine:
# the fastest run is the one least held up), with all of them listed after it.
RUNS=${RUNS:-3}
train_rate() {  # tokens per second over 100 steps of 32 x 64, with $1 threads (of trainer $2)
  "${2:-$build/chapter_tiny/tiny_train}" --text "$work/text.txt" --out "$work/bench.tiny" --steps 100 --batch 32 \
    --eval-every 100 --eval-windows 1 --threads "$1" |
    awk '$1 == "step" { for (i = 1; i < NF; i++) if ($(i + 1) == "tok/s") print $i }'
}
for threads in 1 2; do
  rates=""
  for run in $(seq "$RUNS"); do rates="$rates $(train_rate $threads)"; done
  peak=$peak1; [ "$threads" = 2 ] && peak=$peak2
  printf '%s\n' $rates | sort -n | awk -v t=$threads -v f=$TRAIN_FLOPS -v p="$peak" -v runs="$rates" '
    { r[NR] = $1 }
    END { best = r[NR]; median = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; g = best * f / 1e9
      printf "training, %d thread%s (batch 32 x 64): %8.0f tokens/s  %5.2f GFLOP/s = %4.1f%% of the peak  (best of %d:%s; median %.0f)\n",
             t, (t > 1 ? "s" : " "), best, g, 100 * g / p, NR, runs, median
      cmd = sprintf("tiny_train --steps 100 --batch 32 --threads %d, best of %d runs (RUNS)", t, NR); th = t (t > 1 ? " threads" : " thread")
      printf "training, %s: %.0f tokens/s  (%s)\ntraining arithmetic, %s: %.2f GFLOP/s  (%s)\ntraining share of the peak, %s: %.1f %%  (%s)\n",
             th, best, cmd, th, g, cmd, th, 100 * g / p, cmd }'
done

# A/B: the other trainer and this one, run for run. Each run gives two rates:
# the trainer's own tokens/s (wall time), and its tokens per CPU second (user +
# system), which moves far less when other work shares the machine.
if [ -n "${AB:-}" ]; then
  if [ ! -x "$AB" ]; then echo "AB=$AB: no such program (give the path of another tiny_train)"; exit 2; fi
  AB_RUNS=${AB_RUNS:-7}
  ab_run() {  # ab_run THREADS [PROGRAM]: "tokens/s tokens-per-CPU-second" of one run of 100 steps
    local TIMEFORMAT='%3U %3S' rate cpu
    { time train_rate "$@" > "$work/rate.txt"; } 2> "$work/cpu.txt"
    rate=$(cat "$work/rate.txt"); cpu=$(awk '{ print $1 + $2 }' "$work/cpu.txt")
    awk -v r="$rate" -v c="$cpu" 'BEGIN { printf "%s %.0f\n", r, 100 * 32 * 64 / c }'
  }
  median() { printf '%s\n' $1 | sort -n | awk '{ r[NR] = $1 } END { printf "%.1f", NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'; }
  best() { printf '%s\n' $1 | sort -n | tail -n 1; }
  summary() {  # summary WHAT A-RATES B-RATES
    local pairs
    # Each pair of runs side by side saw about the same load: the median of B/A over the pairs, too.
    pairs=$(paste -d ' ' <(printf '%s\n' $2) <(printf '%s\n' $3) | awk '{ print 100 * $2 / $1 }')
    awk -v w="$1" -v am="$(median "$2")" -v ab="$(best "$2")" -v bm="$(median "$3")" -v bb="$(best "$3")" \
        -v p="$(median "$pairs")" -v a="$2" -v b="$3" 'BEGIN {
      printf "  %s: A median %.0f best %.0f; B median %.0f best %.0f; B/A median %.1f%%, best %.1f%%, median of the pairs %.1f%%\n",
             w, am, ab, bm, bb, 100 * bm / am, 100 * bb / ab, p
      printf "    A:%s\n    B:%s\n", a, b }'
  }
  echo "A/B, $AB_RUNS runs each of 100 steps, alternating: A = $AB, B = $build/chapter_tiny/tiny_train"
  for threads in 1 2; do
    a=""; b=""; a_cpu=""; b_cpu=""
    for run in $(seq "$AB_RUNS"); do
      if [ $((run % 2)) = 1 ]; then
        read -r ra ca <<< "$(ab_run $threads "$AB")"; read -r rb cb <<< "$(ab_run $threads)"
      else
        read -r rb cb <<< "$(ab_run $threads)"; read -r ra ca <<< "$(ab_run $threads "$AB")"
      fi
      a="$a $ra"; b="$b $rb"; a_cpu="$a_cpu $ca"; b_cpu="$b_cpu $cb"
    done
    echo "A/B training, $threads thread$([ "$threads" = 1 ] || echo s):"
    summary "tokens/s" "$a" "$b"
    summary "tokens per CPU second" "$a_cpu" "$b_cpu"
  done
fi

# Generation: each new letter is one forward pass over the last 64 letters.
start=$(date +%s.%N)
"$build/chapter_tiny/tiny_generate" --prompt "ROMEO:" --length 2000 --seed 1 > /dev/null
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v f=$FORWARD_FLOPS -v p="$peak1" 'BEGIN {
  letters = 2000 / (e - s); tokens = letters * 64; g = tokens * f / 1e9
  printf "inference, 1 thread: %8.0f letters/s generated = %8.0f tokens/s through the model  %5.2f GFLOP/s = %4.1f%% of the peak\n",
         letters, tokens, g, 100 * g / p
  cmd = "tiny_generate --prompt ROMEO: --length 2000 --seed 1"
  printf "inference, 1 thread: %.0f letters/s  (%s)\ninference arithmetic, 1 thread: %.2f GFLOP/s  (%s)\ninference share of the peak, 1 thread: %.1f %%  (%s)\n",
         letters, cmd, g, cmd, 100 * g / p, cmd }'
echo "(FLOPs per token: forward $FORWARD_FLOPS, training $TRAIN_FLOPS; see the top of tests/bench/bench_tiny.sh)"

# Generation with kept keys (chapter_tiny/tiny_5_Kept_Keys.cpp, the key/value
# cache) against the plain generator, with the same letters. The lesson is
# built here at -O2, as make builds the timed programs (its lessons are -Og).
# Arithmetic, 2 FLOPs a multiply-add: the lesson's as it prints it, counted as
# its loops ran; the plain generator's as re-reading the window, the lesson's
# "without" (as the inference line above counts it: forward_last_fast leaves
# out the earlier letters' last block, so it does somewhat less).
# Two runs. While the window fills: the 63 letters after a one-letter prompt,
# each reading the kept keys; one fill takes less than starting a program does,
# so tests/bench/kept_fill.cpp times it inside one process (drawing letters left
# out), the best of RUNS batches. And 2000 letters,
# where the window is full from letter 60 on and the cache is made again for
# each letter: the best of RUNS single runs, the two programs alternating.
# There the lesson does the plain generator's arithmetic and more (it also
# reads the earlier letters through the last block), in the chapter's plain
# loops rather than tiny_model_fast.hpp's, so it is the slower of the two.
kept=$work/tiny_5_Kept_Keys
${CXX:-g++} -std=c++17 -O2 -ffp-contract=off -Icommon -Ichapter_tiny -DSOURCE_ROOT="\"$PWD\"" \
  chapter_tiny/tiny_5_Kept_Keys.cpp -o "$kept" -pthread || { echo "could not build tiny_5_Kept_Keys"; exit 1; }
fill=$work/kept_fill
${CXX:-g++} -std=c++17 -O2 -ffp-contract=off -Icommon -Ichapter_tiny tests/bench/kept_fill.cpp -o "$fill" -pthread ||
  { echo "could not build tests/bench/kept_fill.cpp"; exit 1; }
counted() {  # counted ARGS...: "with without" multiply-adds, as tiny_5_Kept_Keys prints them
  "$kept" "$@" | sed -n 's/^In all: \([0-9]*\) multiply-adds with the cache, \([0-9]*\) without.*/\1 \2/p'
}
# kept_against_plain WHAT LETTERS SECONDS-PLAIN SECONDS-KEPT WITH WITHOUT COMMAND: the result lines
kept_against_plain() {
  awk -v w="$1" -v n="$2" -v tp="$3" -v tk="$4" -v with="$5" -v without="$6" -v c="$7" -v p="$peak1" 'BEGIN {
    plain = n / tp; kept = n / tk; gp = 2 * without / tp / 1e9; gk = 2 * with / tk / 1e9
    printf "%s, plain (tiny_generate): %.0f letters/s  (%s)\n", w, plain, c
    printf "%s, kept keys (tiny_5_Kept_Keys -O2): %.0f letters/s  (%s)\n", w, kept, c
    printf "%s, kept keys over plain: %.2f times  (%s)\n", w, kept / plain, c
    printf "%s, plain share of the peak, 1 thread: %.1f %%  (%s; %.2f GFLOP/s)\n", w, 100 * gp / p, c, gp
    printf "%s, kept keys share of the peak, 1 thread: %.1f %%  (%s; %.2f GFLOP/s)\n", w, 100 * gk / p, c, gk }'
}

read -r fill_plain fill_kept <<< "$("$fill" "$RUNS")"
read -r with without <<< "$(counted --prompt R --length 63)"
kept_against_plain "generation while the window fills" 63 "$fill_plain" "$fill_kept" "$with" "$without" \
  "--prompt R --length 63, timed in one process by tests/bench/kept_fill.cpp, best of $RUNS"

best_plain="" best_kept=""
for run in $(seq "$RUNS"); do
  for program in "$build/chapter_tiny/tiny_generate" "$kept"; do
    start=$(date +%s.%N)
    "$program" --prompt "ROMEO:" --length 2000 --seed 1 > /dev/null
    end=$(date +%s.%N)
    seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f", e - s }')
    if [ "$program" = "$kept" ]; then best_kept=$(awk -v d="$seconds" -v best="$best_kept" 'BEGIN { print (best == "" || d < best) ? d : best }')
    else best_plain=$(awk -v d="$seconds" -v best="$best_plain" 'BEGIN { print (best == "" || d < best) ? d : best }'); fi
  done
done
read -r with without <<< "$(counted --prompt "ROMEO:" --length 2000 --seed 1)"
kept_against_plain "generation of 2000 letters" 2000 "$best_plain" "$best_kept" "$with" "$without" \
  "--prompt ROMEO: --length 2000 --seed 1, best of $RUNS"
