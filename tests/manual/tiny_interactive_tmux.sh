#!/usr/bin/env bash
# A check by hand (it needs tmux, so make test does not run it): drives
# tiny_1_Soft_Lookup --interactive in a real terminal, presses arrow keys and
# reads the screen back, then quits once with q and once with Ctrl-C, and
# compares the terminal's settings (stty -g) before and after each.
#   bash tests/manual/tiny_interactive_tmux.sh [build]
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
command -v tmux > /dev/null || { echo "needs tmux"; exit 1; }
session=tiny_interactive_$$
scratch=$(mktemp -d)
trap 'tmux kill-session -t "$session" 2> /dev/null; rm -rf "$scratch"' EXIT
tmux new-session -d -s "$session" -x 100 -y 50 "bash --norc --noprofile"
status=0
screen() { tmux capture-pane -t "$session" -p; }
wait_for() {  # text to see on the screen, within 5 seconds
  for _ in $(seq 50); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done
  echo "never saw: $1"; screen | head -30; status=1; return 1
}

for quit in q C-c; do
  rm -f "$scratch"/*
  # Inside sh -c (which outlives a Ctrl-C), so that no interactive shell puts the
  # terminal back for the program.
  command="clear; stty sane; sh -c 'trap : INT; stty -g > $scratch/before; $build/chapter_tiny/tiny_1_Soft_Lookup --interactive"
  command+="; echo \$? > $scratch/status; stty -g > $scratch/after'"
  tmux send-keys -t "$session" "$command" Enter
  wait_for 'The query for "small" is ( 1.50, -1.50).' || continue
  tmux send-keys -t "$session" Up Up Left
  wait_for 'The query for "small" is ( 1.25, -1.00).'
  tmux send-keys -t "$session" 0
  wait_for 'The query for "small" is ( 0.00,  0.00).'
  wait_for '25.0%'
  tmux send-keys -t "$session" "$quit"
  for _ in $(seq 50); do [ -s "$scratch/after" ] && break; sleep 0.1; done
  want=$([ "$quit" = q ] && echo 0 || echo 130)
  [ "$(cat "$scratch/status" 2> /dev/null)" = "$want" ] || { echo "$quit: exit status $(cat "$scratch/status" 2> /dev/null), not $want"; status=1; }
  cmp -s "$scratch/before" "$scratch/after" || { echo "$quit: the terminal's settings were not restored"; status=1; }
  echo "$quit: status $(cat "$scratch/status" 2> /dev/null), settings $(cmp -s "$scratch/before" "$scratch/after" && echo restored || echo CHANGED)"
done
[ "$status" -eq 0 ] && echo "interactive mode: PASS" || echo "interactive mode: FAIL"
exit $status
