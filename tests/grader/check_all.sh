#!/usr/bin/env bash
# make check-exercises-all: the checks of every exercise, or of each ID given:
#
#   bash tests/grader/check_all.sh [--seeds N] [ID...]
#
# The reference and every solution (at N seeds from SEED with --seeds N: the seed study), then
# the attack suite and, for all, the class cases. SEED is random unless given, and printed.
. "$(dirname "$0")/checks.sh"
export SEED=${SEED:-$(random_seed)} TIME_LIMIT=${TIME_LIMIT:-10}
seeds=$SEED ids=
while [ $# -gt 0 ]; do
  case "$1" in
  --seeds) case "${2:-}" in '' | *[!0-9]* | 0) echo "check_all: --seeds takes a whole number" >&2; exit 2 ;; esac
    seeds=$(seq "$SEED" $((SEED + $2 - 1)) | paste -sd ' ' -); shift ;;
  *) [ -n "$(exercise_file "$1")" ] ||
      { echo "check_all: there is no exercise '$1'; the exercises: $(exercise_ids)" >&2; exit 2; }
    ids="$ids $(exercise_id_of "$(exercise_file "$1")")" ;;
  esac
  shift
done
echo "check-exercises-all: seeds $seeds (SEED=$SEED replays them)"

for tests_file in tests/grader/*.*.cpp; do
  name=$(basename "$tests_file" .cpp)
  [ -n "$(exercise_file "$name")" ] ||
    failed "$tests_file tests no exercise: no chapter*/exercises/*.cpp has the line '// Exercise: $name'"
done
jobs=()
for id in ${ids:-$(exercise_ids)}; do
  if [ ! -f "tests/grader/$id.cpp" ]; then failed "exercise $id has no tests file tests/grader/$id.cpp"
  elif check_declaration "$id"; then jobs+=("check_reference $id"); fi
done
in_parallel ${jobs[@]+"${jobs[@]}"}
jobs=()
for id in ${ids:-$(exercise_ids)}; do
  ls tests/grader/solutions/wrong/"$id"-* > /dev/null 2>&1 ||
    failed "$id: no wrong solution tests/grader/solutions/wrong/$id-<what>.sed (or .cpp)"
  for file in tests/grader/solutions/*/"$id"-*; do [ -f "$file" ] && jobs+=("check_solution $file"); done
done
for file in tests/grader/solutions/*/*; do
  [ -n "$(exercise_file "$(basename "$file" | cut -d- -f1)")" ] || jobs+=("check_solution $file")
done
in_parallel ${jobs[@]+"${jobs[@]}"}

part() {  # part COMMAND...: a suite, with its FAILED, pending and skipped lines and its last
  echo "check-exercises-all: $*"
  "$@" > "$work/part.log" 2>&1
  local status=$?
  grep -E '^(FAILED|pending|skipped):' "$work/part.log" | sed 's/^/    /'
  echo "    $(tail -n 1 "$work/part.log")"
  [ "$status" -eq 0 ] || failed "$*"
}
part bash tests/grader/attacks.sh $ids
[ -n "$ids" ] || part bash tests/grader/class_check.sh
[ -n "$ids" ] || part bash tests/grader/export_check.sh
echo "check-exercises-all: $failures failed (seeds $seeds)"
[ "$failures" -eq 0 ]
