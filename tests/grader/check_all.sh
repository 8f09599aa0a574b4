#!/usr/bin/env bash
# make check-exercises-all: the checks of tests/checks/grader_20.3.sh for every
# exercise found (chapter*/exercises/*.cpp with an "// Exercise:" line):
# the reference scores full marks, the handout's starter compiles and scores
# below full, a program that only prints the golden text scores at most the
# printed-output test's points, every wrong solution in tests/grader/wrong/
# loses the tests it names, every right one in tests/grader/right/ (a right
# answer written differently) scores full marks, no solution line is in the
# handout, then the attack suite (tests/grader/attacks.sh) and the class
# cases (tests/grader/class_check.sh). The seed
# is random unless SEED is given; it is printed, so a failure can be replayed.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
. tests/grader/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
export SEED=${SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000000 ))}
export GRADER_CACHE=$work/cache TIME_LIMIT=${TIME_LIMIT:-10}
. tests/grader/checks.sh
echo "check-exercises-all: seed $SEED (SEED=$SEED make check-exercises-all replays it)"

bash tests/grader/handout.sh "$work/handout" > "$work/handout.log" 2>&1 || failed "make handout failed" "$work/handout.log"
check_handout_clean "$work/handout"

ids=$(exercise_table | cut -f1)
[ -n "$ids" ] || failed "no exercises found"
jobs=()
for id in $ids; do
  [ -f "tests/grader/$id.cpp" ] || { failed "exercise $id has no tests file tests/grader/$id.cpp"; continue; }
  jobs+=("check_reference $id")
done
in_parallel "${jobs[@]}"
jobs=()
for id in $ids; do
  [ -f "$work/list.$id" ] || continue
  jobs+=("check_starter $id" "check_printer $id")
  wrongs=0
  for sedfile in tests/grader/wrong/"$id"-*.sed; do
    [ -f "$sedfile" ] || continue
    jobs+=("check_wrong $sedfile")
    wrongs=$((wrongs + 1))
  done
  [ "$wrongs" -gt 0 ] || failed "$id: no wrong solution in tests/grader/wrong/$id-*.sed"
  for sedfile in tests/grader/right/"$id"-*.sed; do
    [ -f "$sedfile" ] && jobs+=("check_right $sedfile")
  done
done
in_parallel "${jobs[@]}"

# The attack suite (tests/grader/attacks.sh) at this seed and the next: every
# hostile submission must gain nothing.
bash tests/grader/attacks.sh --seed "$SEED" > "$work/attacks.log" 2>&1
attacks_status=$?
echo "check-exercises-all: the attack suite (bash tests/grader/attacks.sh --seed $SEED):"
grep -E '^(FAILED|pending|skipped):|^attacks:' "$work/attacks.log" | sed 's/^/    /'
[ "$attacks_status" -eq 0 ] || failed "the attack suite: $(tail -n 1 "$work/attacks.log")"
# The class cases: a class of our own, hostile neighbours among it, graded at once.
SEED=$SEED bash tests/grader/class_check.sh > "$work/class.log" 2>&1
class_status=$?
echo "check-exercises-all: the class cases (SEED=$SEED bash tests/grader/class_check.sh):"
grep -E '^(ok|FAILED|skipped):' "$work/class.log" | sed 's/^/    /'
[ "$class_status" -eq 0 ] || failed "the class cases: $(tail -n 1 "$work/class.log")"
echo "check-exercises-all: $failures failed (seed $SEED)"
[ "$failures" -eq 0 ]
