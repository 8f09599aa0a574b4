#!/usr/bin/env bash
# make bench: Lab 5's training loop (200 updates at lr 0.03, full batch over
# the 9 prefixes, hand-written gradients and Adam), repeated often enough to
# time, against the book's PyTorch loop at about 0.3 s for the same 200 updates.
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."
"$build/chapter15/studies/lab5_runs" --time 500
