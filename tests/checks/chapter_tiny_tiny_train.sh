#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_train.sh: a short run of chapter_tiny/tiny_train on a text this
# test writes itself. The loss falls; the same seed gives the same checkpoint
# bytes with 1 and 2 threads; a run stopped halfway and resumed ends with the
# same bytes as a run never stopped. (Bad input: tests/fixtures/bad_input.tsv.)
set -u
build=${1:-build}
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
train=$build/chapter_tiny/tiny_train
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }

bash "$(dirname "$0")/../fixtures/tiny_text.sh" > "$work/text.txt"

run() {  # run NAME ARGS...: a short training run writing $work/NAME.tiny
  local name=$1; shift
  $RUN "$train" --text "$work/text.txt" --out "$work/$name.tiny" --steps 30 --batch 4 --lr 0.01 --warmup 5 \
    --eval-every 10 --eval-windows 4 "$@" > "$work/$name.log" 2>&1
}

run two --threads 2 || bad "tiny_train exited with status $? ($(tail -n 1 "$work/two.log"))"
# The loss falls: the train loss of steps 21-30 is below that of steps 1-10, and
# the final validation loss is well below ln(V), a model that knows nothing.
first=$(awk '$1 == "step" && $2 ~ /^10\// {print $4}' "$work/two.log")
last=$(awk '$1 == "step" && $2 ~ /^30\// {print $4}' "$work/two.log")
val=$(sed -n 's/.*validation loss \([0-9.]*\) nats.*/\1/p' "$work/two.log")
vocabulary=$(fold -w1 "$work/text.txt" | sort -u | wc -l)  # distinct characters, newline included
echo "train loss $first after 10 steps, $last after 30; validation $val; ln(V) with V = $vocabulary"
awk -v a="$first" -v b="$last" 'BEGIN { exit !(a != "" && b != "" && b < a - 0.2) }' || bad "train loss did not fall: $first -> $last"
awk -v v="$val" -v n="$vocabulary" 'BEGIN { exit !(v != "" && v < log(n) - 0.8) }' || bad "validation loss $val is not well below ln($vocabulary)"

run one --threads 1 || bad "tiny_train --threads 1 failed"
cmp -s "$work/one.tiny" "$work/two.tiny" || bad "1 and 2 threads gave different checkpoints"

# Stopped after step 13 (between saves), then resumed: the same bytes as never stopped.
run halt --threads 2 --save-every 10 --stop-at 13 || bad "tiny_train --stop-at failed"
grep -q "stopped after step 13" "$work/halt.log" || bad "the run did not stop at step 13"
$RUN "$train" --text "$work/text.txt" --out "$work/halt.tiny" --resume --threads 1 > "$work/resume.log" 2>&1 ||
  bad "--resume failed: $(tail -n 1 "$work/resume.log")"
grep -q "resuming from .* at step 13" "$work/resume.log" || bad "--resume did not continue from step 13"
cmp -s "$work/halt.tiny" "$work/two.tiny" || bad "a stopped and resumed run differs from one never stopped"

exit $status
