#!/usr/bin/env bash
# The class handout (make handout, every exercise in one go), as a class uses
# it: every folder's starter builds and its check.sh runs; every exercise
# solved in its own folder makes every check.sh print the lesson's output, the
# dependent ones (15.5 on 15.3 and 15.4, tiny.2 on tiny.1) built with the
# earlier answers from the folders beside them; and the grader, given the
# dependent exercise's file alone, gives it full marks.
. "$(dirname "$0")/../grader/checks.sh"
export SEED=2026 TIME_LIMIT=10
out=$work/handout

bash tests/grader/handout.sh "$out" > "$work/handout.log" 2>&1 || failed "make handout failed" "$work/handout.log"
# Untouched: each check.sh builds its starter (its output may differ, not its build).
for dir in "$out"/*/; do
  id=$(basename "$dir")
  bash "$dir/check.sh" > "$work/start.$id" 2>&1
  if grep -q "does not build" "$work/start.$id"; then failed "the class handout's $id starter does not build with check.sh" "$work/start.$id"
  else ok "the class handout's $id starter builds and runs with check.sh"; fi
done

# Solved, every folder: its own file replaced by the solved exercise.
while IFS=$'\t' read -r id file; do
  solved_exercise "$id" "$file" | flat_includes > "$out/$id/$(basename "$file")"
done < <(exercise_table)
for dir in "$out"/*/; do
  id=$(basename "$dir")
  if bash "$dir/check.sh" > "$work/solved.$id" 2>&1 && grep -q "prints the lesson's output" "$work/solved.$id"; then
    ok "the class handout's $id, solved in its folder, prints the lesson's output"
  else failed "the class handout's $id, solved in its folder (and the exercises it builds on in theirs), should print the lesson's output" "$work/solved.$id"; fi
done
for id in 15.5 tiny.2; do
  file=$(exercise_file "$id")
  grade "$id" "$out/$id/$(basename "$file")" "$work/grade.$id"
  total=$(total_of "$work/grade.$id")
  if [ "$status" -eq 0 ] && full "$total"; then ok "the grader gives the class handout's solved $id full marks ($total)"
  else failed "the grader should give the class handout's solved $id full marks (status $status, $total)" "$work/grade.$id"; fi
done
[ "$failures" -eq 0 ] || { echo "$failures failed"; exit 1; }
