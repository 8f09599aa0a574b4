#!/usr/bin/env bash
# make bench: Lab 5's training loop (200 updates at lr 0.03, full batch over
# the 9 prefixes, hand-written gradients and Adam), repeated often enough to
# time, against the book's PyTorch loop at about 0.3 s for the same 200 updates.
# Prints lab5_runs' own lines, then its figures as result lines
# ("name: value unit  (command)", which bench.sh collects into RESULTS.md).
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
command="$build/chapter15/studies/lab5_runs --time 500, the fastest of 5 batches of 100"
"$build/chapter15/studies/lab5_runs" --time 500 | awk -v cmd="$command" '
  { print }
  /^fastest batch, (wall|CPU) time:/ {
    clock = ($3 == "wall") ? "wall" : "CPU"
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) == "ms" && $(i + 2) == "per") ms = $i
      if ($(i + 1) == "updates" && $(i + 2) == "per") rate = $i
      if ($(i + 1) == "times") times = $i
    }
    lines = lines sprintf("Lab 5, 200 updates, %s time: %s ms  (%s)\n", clock, ms, cmd)
    lines = lines sprintf("Lab 5 updates per second, %s time: %s updates/s  (%s)\n", clock, rate, cmd)
    lines = lines sprintf("Lab 5 speed-up over the book%cs PyTorch loop at 0.3 s, %s time: %s times  (%s)\n", 39, clock, times, cmd)
  }
  END { printf "%s", lines }'
