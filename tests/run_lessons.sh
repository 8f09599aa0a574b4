#!/usr/bin/env bash
# make run: every lesson in book order, each under a header line naming it.
# EXERCISES (as for make test) says whose exercises run; make builds only those.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
source tests/wanted.sh  # wanted: is an exercise in what EXERCISES asks for
status=0
while IFS=$'\t' read -r lesson section; do
  wanted "$lesson" || continue
  printf '\n==> %s (section %s)\n\n' "$lesson" "$section"
  "$build/$lesson" || { echo "*** $lesson exited with status $?"; status=1; }
done < <(bash tests/lessons.sh)
exit $status
