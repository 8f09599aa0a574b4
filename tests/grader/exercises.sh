#!/usr/bin/env bash
# A learner's view of a folder of exercise files (a handout being worked on):
#
#   make exercises DIR=handout
#
# Grades each exercise's file found in DIR (by its handout name, at any depth),
# prints a line per exercise and which one to do next. Exit 0 when the folder
# could be graded (exercises left to do are no error), 1 when it holds no
# exercise file or one could not be graded, 2 for a bad DIR.
set -u
dir=${1:-}
[ -n "$dir" ] && [ "${dir#/}" = "$dir" ] && dir="$PWD/$dir"
cd "$(dirname "$0")/../.." || exit 2
. tests/grader/lib.sh
[ -n "$dir" ] || { echo "exercises: DIR is missing: which folder holds your exercise files?" >&2; exit 2; }
[ -d "$dir" ] || { echo "exercises: DIR '$1' is not a folder" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/exercises.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
found=0 done_count=0 next= broken=0
while IFS=$'\t' read -r id file; do
  name=$(basename "$file")
  src=$(find "$dir" -name "$name" -type f 2> /dev/null | sort | head -n 1)
  if [ -z "$src" ]; then
    printf '  %-8s %-32s %s\n' "$id" "$name" "not in this folder"
    continue
  fi
  found=$((found + 1))
  TMPDIR=$work bash tests/grader/grade.sh "$id" "$src" > "$work/log" 2>&1
  status=$?
  total=$(grep -E '^[0-9]+/[0-9]+ points$' "$work/log" | tail -n 1)
  if [ "$status" -eq 0 ]; then
    done_count=$((done_count + 1))
    printf '  %-8s %-32s %-14s %s\n' "$id" "$name" "$total" "done"
  elif [ "$status" -eq 1 ]; then
    printf '  %-8s %-32s %-14s %s\n' "$id" "$name" "$total" "to do"
    [ -n "$next" ] || next="$id ${src#"$PWD"/}"
  else
    printf '  %-8s %-32s %s\n' "$id" "$name" "cannot grade: $(head -n 1 "$work/log")"
    [ -n "$next" ] || next="$id ${src#"$PWD"/}"
    broken=1
  fi
done < <(exercise_table)

echo
echo "$done_count of $found exercises done"
if [ "$found" -eq 0 ]; then
  echo "No exercise files in '$1' (make handout writes them)."
  exit 1
fi
if [ -n "$next" ]; then
  echo "Next: exercise ${next%% *}, ${next#* }"
  echo "  make check-exercise EX=${next%% *} SRC=${next#* }   shows each test, its points and a hint"
  exit "$broken"
fi
echo "All done."
