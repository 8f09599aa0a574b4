#!/usr/bin/env bash
# What the grader's report says when no test could run, and make exercises on a
# class handout: an empty file (also a byte-order mark alone) says "the file is
# empty"; a compile error shows the compiler's message and one line on what to
# fix, with no test's hint; a header included by a repository path says to
# include the handout's headers by name; make exercises shows an untouched
# starter as "not started" without grading it, grades a solved file once, and
# a second run (its grades kept in DIR/.grades) gives the same lines and
# grades nothing; a changed file is graded again.
. "$(dirname "$0")/../grader/checks.sh"
export SEED=2026 TIME_LIMIT=3
starter_of() { cut_solutions "$(exercise_file "$1")" | flat_includes; }

# report NAME WANT: $work/NAME.cpp graded as 20.3 scores 0/10, says WANT on its
# last line, and shows no test's hint.
report() {
  local log=$work/$1.log
  grade 20.3 "$work/$1.cpp" "$log"
  if [ "$status" -eq 1 ] && [ "$(total_of "$log")" = 0/10 ] && tail -n 1 "$log" | grep -qF "$2" &&
     ! grep -q "^Hints:" "$log"; then ok "$1: 0/10, '$2', no hints"
  else failed "$1: want 0/10, a last line with '$2' and no hints" "$log"; fi
}
: > "$work/empty.cpp"
printf '\357\273\277\r\n' > "$work/byte_order_mark.cpp"
printf '#include "attention109.hpp"\nint main() { return undeclared_name; }\n' > "$work/compile_error.cpp"
starter_of 20.3 | sed 's|^#include "attention109.hpp"|#include "../../common/matrix.hpp"\n&|' \
  > "$work/repository_path.cpp"
report empty "The file is empty"
report byte_order_mark "The file is empty"
report compile_error "Your file did not compile: fix the first error above (line 2 of your file)"
# GCC: "'undeclared_name' was not declared"; Clang: "use of undeclared identifier 'undeclared_name'".
grep -qE "error: .*'undeclared_name'" "$work/compile_error.log" &&
  ok "compile_error: the compiler's message is shown" ||
  failed "compile_error: no compiler's message" "$work/compile_error.log"
report repository_path "include the handout's headers by name, #include \"matrix.hpp\""
grep -q "did not compile" "$work/repository_path.log" &&
  failed "repository_path: it should not be told it did not compile" "$work/repository_path.log"

# make exercises on a class handout with one exercise solved, twice; then that file changed.
handout=$work/handout
bash tests/grader/handout.sh "$handout" > "$work/handout.log" 2>&1 || failed "make handout" "$work/handout.log"
solved_copy 20.3
flat_includes < "$solved" > "$handout/20.3/$(basename "$solved")"
# cpu_now: the CPU seconds this shell's children have taken so far, in $now (times runs here).
cpu_now() {
  times > "$work/times"
  now=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
    "$work/times")
}
folder() {  # folder LOG: make exercises on the handout; $cpu: the CPU seconds it took
  local t0
  cpu_now && t0=$now
  TMPDIR=$work/tmp bash tests/grader/grade.sh --folder "$handout" > "$1" 2>&1
  cpu_now && cpu=$(awk -v a="$t0" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
}
folder "$work/first.log"
first=$cpu
touch "$work/marker"  # a grading writes its grade anew, newer than this
folder "$work/second.log"
second=$cpu
count=$(exercise_ids | wc -w | tr -d ' ')
if grep -qE '^  20\.3 +ex3_Cross_Attention\.cpp +10/10 points +done$' "$work/first.log" &&
   [ "$(grep -c '^  .* not started$' "$work/first.log")" -eq $((count - 1)) ] &&
   grep -q "^1 of $count exercises done, $((count - 1)) not started$" "$work/first.log"; then
  ok "make exercises: 20.3 done, the $((count - 1)) untouched starters 'not started'"
else failed "make exercises on a handout with 20.3 solved" "$work/first.log"; fi
cmp -s "$work/first.log" "$work/second.log" && ok "make exercises: the second run prints the same lines" ||
  failed "make exercises: the second run differs" "$work/second.log"
[ -d "$handout/.grades" ] && [ -z "$(find "$handout/.grades" -newer "$work/marker")" ] &&
  ok "make exercises: the second run graded nothing ($second s of CPU; the first, which graded 20.3, $first s)" ||
  failed "make exercises: the second run graded 20.3 again ($(ls "$handout/.grades"))"
echo "// a comment added" >> "$handout/20.3/$(basename "$solved")"
folder "$work/third.log"
if [ "$(ls "$handout/.grades" | grep -c '^20\.3\.')" -eq 1 ] &&
   [ -n "$(find "$handout/.grades" -newer "$work/marker")" ] &&
   cmp -s "$work/first.log" "$work/third.log"; then
  ok "make exercises: a changed file is graded again ($cpu s of CPU), and only its last grade is kept"
else
  failed "make exercises: a changed 20.3 should be graded again, one grade kept ($(ls "$handout/.grades"))" \
    "$work/third.log"
fi

echo "grader report checks: $failures failed"
[ "$failures" -eq 0 ]
