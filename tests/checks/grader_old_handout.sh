#!/usr/bin/env bash
# A class handed out before an update: the handout of the commit before the helpers left
# maths.hpp (79ece07's parent, made by that commit's make handout and stamped as make handout stamps one
# now), with 20.3, 20.5, 15.3 and tiny.2 solved as a student hands them in (that commit's solution regions
# in its starters), graded from this tree. With HANDOUT= (its zip) every right answer gets full marks and
# a wrong one loses points; without it each file's row says it was written against another handout. A
# handout today's checker does not fit is graded by its commit's grader, or, with no commit, says how.
. "$(dirname "$0")/../grader/checks.sh"
export SEED=2026 TIME_LIMIT=10 JOBS=2 SANDBOX
SANDBOX=$(bash tests/grader/sandbox.sh probe)  # our own files: any sandbox will do
unset HANDOUT
commit=$(git rev-parse -q --verify "79ece07^{commit}^" 2> /dev/null) ||
  { echo "skipped: this checkout has no git history with commit 79ece07 (CI's clone has it)"; exit 77; }

# The old handout, and the class: "right" hands in the four solved, "wrong" a 20.5 that commit's grader failed.
old=$work/old class=$work/class
mkdir -p "$old" "$class/right" "$class/wrong"
git archive "$commit" | tar -x -C "$old" || { failed "cannot unpack commit $commit"; exit 1; }
(cd "$old" && bash tests/grader/handout.sh "$work/handout") > "$work/handout.log" 2>&1 ||
  { failed "commit $commit's make handout" "$work/handout.log"; exit 1; }
echo "$commit" > "$work/handout/VERSION"
(cd "$work" && zip -qr handout.zip handout) && given=$work/handout.zip || given=$work/handout
for id in 20.3 20.5 15.3 tiny.2; do
  (cd "$old" && file=$(exercise_file "$id") && solved_exercise "$id" "$file" | flat_includes) > "$class/right/$id.cpp"
  mv "$class/right/$id.cpp" "$class/right/$(basename "$(ls "$work/handout/$id"/ex*.cpp)")"
done
sed -f "$old/tests/grader/attacks/wrong/20.5-softmax_jacobian_diagonal.sed" "$class/right/ex5_Backward_WQ.cpp" \
  > "$class/wrong/ex5_Backward_WQ.cpp"
cmp -s "$class/right/ex5_Backward_WQ.cpp" "$class/wrong/ex5_Backward_WQ.cpp" && failed "the wrong 20.5 is the right one"

# row OUT STUDENT ID: "points max_points status" from OUT/grades.csv, its columns found by name.
row() {
  awk -F, -v s="$2" -v id="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["student"] == s && $c["exercise"] == id { print $c["points"], $c["max_points"], $c["status"] }' "$1/grades.csv" |
    tr -d '\r'
}
HANDOUT=$given bash tests/grader/grade_class.sh "$class" "$work/with" > "$work/with.log" 2>&1
for id in 20.3 20.5 15.3 tiny.2; do
  read -r points max status <<< "$(row "$work/with" right "$id")"
  if [ -n "$max" ] && [ "$points" = "$max" ] && [ "$status" = graded ] &&
     grep -q "version $commit" "$work/with/students/right/$id.txt"; then
    ok "the old handout's $id, solved, graded with HANDOUT=: full marks ($points/$max), its report names the version"
  else failed "the old handout's solved $id with HANDOUT= should get full marks (got '$points/$max $status')" \
    "$work/with/students/right/$id.txt"; fi
done
read -r points max status <<< "$(row "$work/with" wrong 20.5)"
[ "$status" = graded ] && [ "$points" -lt "$max" ] &&
  ok "its wrong 20.5 (the softmax's Jacobian's diagonal only) loses points with HANDOUT= ($points/$max)" ||
  failed "the old handout's wrong 20.5 should lose points with HANDOUT= (got '$points/$max $status')" \
    "$work/with/students/wrong/20.5.txt"

bash tests/grader/grade_class.sh "$class" "$work/without" 20.3 20.5 15.3 tiny.2 > "$work/without.log" 2>&1
for id in 20.3 20.5 15.3 tiny.2; do
  read -r points max status <<< "$(row "$work/without" right "$id")"
  if [ "$status" = other-handout ] && grep -q "Written against another handout?.*HANDOUT=" "$work/without/students/right/$id.txt"
  then ok "without HANDOUT the old $id's row is other-handout, and its report says to grade it with HANDOUT="
  else failed "without HANDOUT the old $id should be other-handout (got '$status')" \
    "$work/without/students/right/$id.txt"; fi
done
grep -q "written against another handout.*HANDOUT=" "$work/without.log" &&
  ok "without HANDOUT the terminal says which files look written against another handout" ||
  failed "without HANDOUT the terminal should name the files written against another handout" "$work/without.log"

# A handout whose lesson prints what today's does not: its commit's grader grades it; with no commit to go
# to, the row says why (needs-version) and names the command.
cp -r "$work/handout" "$work/changed" && echo "a line today's lesson does not print" >> "$work/changed/20.3/expected_output.txt"
HANDOUT=$work/changed grade 20.3 "$class/right/ex3_Cross_Attention.cpp" "$work/changed.log"
total=$(total_of "$work/changed.log")
[ "$status" -eq 0 ] && full "$total" && grep -q "graded by the grader of that commit" "$work/changed.log" &&
  ok "a handout today's checker does not fit: graded by its commit's grader, full marks ($total)" ||
  failed "a handout today's checker does not fit should be graded by its commit's grader (status $status)" "$work/changed.log"
echo "unknown: make handout ran in a folder that is not a git checkout" > "$work/changed/VERSION"
mkdir -p "$work/one/right" && cp "$class/right/ex3_Cross_Attention.cpp" "$work/one/right/"
HANDOUT=$work/changed bash tests/grader/grade_class.sh "$work/one" "$work/unknown" > "$work/unknown.log" 2>&1
read -r points max status <<< "$(row "$work/unknown" right 20.3)"
[ "$status" = needs-version ] && grep -q "grade them there: make grade-class DIR=.* in the checkout" "$work/unknown.log" &&
  ok "with no commit to grade it at: needs-version, and the terminal names the command that grades it there" ||
  failed "a handout with no commit that today's checker does not fit should be needs-version (got '$status')" \
    "$work/unknown.log"
[ "$failures" -eq 0 ] || { echo "$failures failed"; exit 1; }
