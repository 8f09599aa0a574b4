#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_train_interrupt.sh: tiny_train killed with SIGKILL again and again,
# at many points (most of them while a checkpoint is being written, since it
# saves after every step), and resumed each time. After every kill the
# checkpoint on disk must load; the run must resume from its state's step; and
# the finished run must be bit-identical to one never interrupted. What a killed
# write leaves beside its file (FILE.tmp<pid>) is removed by the next run that
# writes that file.
set -u
build=${1:-build}
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
train=$build/chapter_tiny/tiny_train
score=$build/chapter_tiny/tiny_generate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }

bash "$(dirname "$0")/../fixtures/tiny_text.sh" > "$work/text.txt"
settings=(--text "$work/text.txt" --steps 40 --batch 4 --warmup 5 --eval-every 20 --eval-windows 4 --save-every 1)

# The uninterrupted run, timed: the kills below are spread over its length in ms
# (a sanitizer build is several times slower).
started=$(date +%s%N)
$RUN "$train" "${settings[@]}" --out "$work/straight.tiny" > "$work/straight.log" 2>&1 || bad "the uninterrupted run failed"
run_ms=$(( ($(date +%s%N) - started) / 1000000 ))

# Killed after the last step's state was written but before its checkpoint:
# the state is complete, the checkpoint is one step behind. --resume must
# write the checkpoint, not just say it did.
$RUN "$train" "${settings[@]}" --out "$work/late.tiny" --stop-at 39 > /dev/null 2>&1 ||
  bad "the run to step 39 failed"
cp "$work/straight.tiny.state" "$work/late.tiny.state"
$RUN "$train" "${settings[@]}" --out "$work/late.tiny" --resume > /dev/null 2>&1 || bad "resuming after the last step failed"
cmp -s "$work/late.tiny" "$work/straight.tiny" || bad "resumed after the last step, the checkpoint was not brought up to date"

temporaries() { (cd "$work" && ls killed.tiny*.tmp* 2> /dev/null); }
# A temporary file this attempt made, not one an earlier kill left (the attempt
# removes those when it first writes, so they must not count, or a kill could
# come before the attempt has written anything).
new_temporary() { temporaries | grep -qvxF -e "${before:-/}"; }

attempt() {  # attempt: one run, resuming when a state file exists; its pid in $pid
  before=$(temporaries)
  resume=()
  [ -f "$work/killed.tiny.state" ] && resume=(--resume)
  $RUN "$train" "${settings[@]}" --out "$work/killed.tiny" "${resume[@]}" > "$work/attempt.log" 2>&1 &
  pid=$!
}

after_kill() {  # the checkpoint on disk, if any, must load
  wait "$pid" 2> /dev/null
  kills=$((kills + 1))
  new_temporary && mid_write=$((mid_write + 1))  # left for the next run to remove
  if [ -f "$work/killed.tiny" ]; then
    $RUN "$score" --model "$work/killed.tiny" --score "to be" > /dev/null 2> "$work/err" ||
      bad "after kill $kills the checkpoint does not load: $(cat "$work/err")"
  fi
}

kills=0 mid_write=0
# Four kills at points spread over a run's length, wherever they land.
for fifth in 1 2 3 4; do
  attempt
  sleep "$(awk -v ms="$run_ms" -v f="$fifth" 'BEGIN { printf "%.3f", ms * f / 5 / 1000 / 2 }')"
  kill -9 "$pid" 2> /dev/null && after_kill || wait "$pid"
done
# Two kills while a checkpoint or state file is being written: each write is
# held open for 200 ms, and the kill comes as soon as its own temporary file appears.
for _ in 1 2; do
  export SLOW_WRITE_MS=200
  attempt
  unset SLOW_WRITE_MS
  for _ in $(seq 1 2000); do
    new_temporary && break
    sleep 0.005
  done
  kill -9 "$pid" 2> /dev/null && after_kill || wait "$pid"
done

# The last attempt runs to the end, from the state the kills left.
attempt
wait "$pid" || bad "the last attempt ended with status $? ($(tail -n 1 "$work/attempt.log"))"
grep -q "resuming from .* at step [1-9]" "$work/attempt.log" || bad "the last attempt did not resume from a saved step"
grep -m 1 "resuming from" "$work/attempt.log"

echo "$kills kills, $mid_write of them while a file was being written"
[ "$mid_write" -ge 2 ] || bad "in $kills kills, only $mid_write landed while a checkpoint was being written"
leftovers=$(cd "$work" && ls killed.tiny*.tmp* 2> /dev/null | tr "\n" " ")
[ -z "$leftovers" ] || bad "the killed writes' temporary files are still there after the last run: $leftovers"

# The same, made by hand: only FILE.tmp followed by digits is a leftover; other
# files beside it stay.
for name in out.tiny.tmp12345 out.tiny.state.tmp7 out.tiny.tmpnotes other.tiny.tmp99; do : > "$work/$name"; done
$RUN "$train" --text "$work/text.txt" --steps 2 --batch 4 --eval-every 2 --eval-windows 4 --out "$work/out.tiny" \
  > "$work/out.log" 2>&1 || bad "the run beside leftovers failed: $(tail -n 1 "$work/out.log")"
left=$(cd "$work" && ls out.tiny* other.tiny* | tr '\n' ' ')
[ "$left" = "other.tiny.tmp99 out.tiny out.tiny.state out.tiny.tmpnotes " ] ||
  bad "beside leftovers, the folder holds '$left', not the checkpoint, its state and the two files not left by a write"
cmp -s "$work/killed.tiny" "$work/straight.tiny" || bad "the killed-and-resumed run differs from the uninterrupted one"
exit $status
