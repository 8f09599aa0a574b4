#!/usr/bin/env bash
# make run: every lesson in book order, each under a header line naming it.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
status=0
while IFS=$'\t' read -r lesson section; do
  printf '\n==> %s (section %s)\n\n' "$lesson" "$section"
  "$build/$lesson" || { echo "*** $lesson exited with status $?"; status=1; }
done < <(bash tests/lessons.sh)
exit $status
