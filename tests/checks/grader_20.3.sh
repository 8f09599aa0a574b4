#!/usr/bin/env bash
# The exercise grader (tests/grader/), shown failing what it exists to catch, on
# exercise 20.3: the reference scores full marks; the handout's starter compiles
# and scores below full; each wrong solution in tests/grader/solutions/wrong/20.3-*
# loses its tests; a student program that crashes, hangs or prints without end
# loses those tests with a message and the grader goes on; results.json is
# valid with Gradescope's fields; make exercises lists a folder; bad input is
# one line and exit 2; a run leaves nothing behind; no solution line is in the
# handout of any exercise; a one-exercise handout (20.3, tiny.2, 15.5), solved
# in its folder, prints the lesson's output. The same checks for every
# exercise, and random seeds, are make check-exercises-all
# (tests/grader/check_all.sh).
. "$(dirname "$0")/../grader/checks.sh"
export SEED=2026 TIME_LIMIT=3
# check_json FILE: results.json as Gradescope reads it: valid JSON, the fields it
# needs, a known status and visibility each, the score the sum of the tests'.
check_json() {
  python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
assert isinstance(r["score"], (int, float)) and isinstance(r["output"], str), "score or output"
for t in r["tests"]:
    assert isinstance(t["name"], str) and isinstance(t["output"], str), "a test's name or output"
    assert t["status"] in ("passed", "failed"), "status " + t["status"]
    assert t["visibility"] in ("hidden", "after_due_date", "after_published", "visible"), "visibility"
    assert 0 <= t["score"] <= t["max_score"], "a test's score outside 0..max_score"
assert abs(sum(t["score"] for t in r["tests"]) - r["score"]) < 1e-9, "score is not the sum of the tests'"
PY
}
# check_handout_clean DIR: no line of a solution region (found nowhere outside one) is in DIR.
check_handout_clean() {
  local dir=$1 f
  for f in chapter*/exercises/*.cpp chapter*/*.hpp chapter*/exercises/*.hpp common/*.hpp; do
    [ -f "$f" ] || continue
    awk '/^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; next } /^[ \t]*\/\/ END SOLUTION/ { inside = 0; next }
      inside && !/^[ \t]*\/\/ STUB:/' "$f" >> "$work/solution_lines"
    cut_solutions "$f" >> "$work/other_lines"
  done
  # Lines that also stand outside the regions ("}", "return a;") say nothing.
  trimmed() { sed 's/^[ \t]*//; s/[ \t\r]*$//; /^$/d' "$@" | sort -u; }
  comm -23 <(trimmed "$work/solution_lines") <(trimmed "$work/other_lines") > "$work/distinctive"
  [ -s "$work/distinctive" ] || { failed "no solution lines found to look for (are the markers there?)"; return; }
  comm -12 "$work/distinctive" <(find "$dir" -type f -exec cat {} + | trimmed) > "$work/leaked"
  if [ -s "$work/leaked" ]; then failed "solution lines appear in the handout $dir:" "$work/leaked"
  else ok "none of the $(wc -l < "$work/distinctive") solution lines appears in the handout"; fi
}
untracked() { git status --porcelain --untracked-files=all 2> /dev/null | grep '^??'; }
before=$(untracked)
reference=$(exercise_file 20.3)

# The handout, for every exercise: written, then searched for solution lines.
bash tests/grader/handout.sh "$work/handout" > "$work/handout.log" 2>&1 || failed "make handout failed" "$work/handout.log"
check_handout_clean "$work/handout"
for starter in "$work"/handout/*/*.cpp; do
  (cd "$(dirname "$starter")" && g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$(basename "$starter")") \
    > "$work/starter.log" 2>&1 || failed "the handout's $(basename "$starter") does not build alone in its folder" "$work/starter.log"
done

# One exercise's handout on its own (make handout EX=<id>), as a student who has
# no repository uses it: the starter's check.sh says its output differs; the
# exercise solved in that folder builds with its headers alone and prints the
# lesson's output (20.3's outputs, tiny.2's gradient checks, 15.5's training).
alone() {  # alone ID
  local id=$1 dir=$work/alone-$1 file name log=$work/alone-$1.log
  file=$(exercise_file "$id"); name=$(basename "$file")
  bash tests/grader/handout.sh "$dir" "$id" > "$log" 2>&1 || { failed "make handout EX=$id failed" "$log"; return; }
  if bash "$dir/$id/check.sh" > "$log" 2>&1; then failed "$id's starter passes its own check.sh" "$log"; return; fi
  solved_exercise "$id" "$file" | flat_includes > "$dir/$id/$name"
  if bash "$dir/$id/check.sh" > "$log" 2>&1 && grep -q "prints the lesson's output" "$log"; then
    ok "$id's handout alone: the starter's check.sh says it differs; solved there, it prints the lesson's output"
  else failed "$id solved in its own handout folder should print the lesson's output" "$log"; fi
}
in_parallel "alone 20.3" "alone tiny.2" "alone 15.5"

check_reference 20.3
starter=$work/starter/20.3/$(basename "$reference")
mkdir -p "$(dirname "$starter")" && cut_solutions "$reference" > "$starter"
grade 20.3 "$starter" "$work/starter.20.3"
[ "$status" -eq 1 ] && [ "$(total_of "$work/starter.20.3")" = 0/10 ] && ok "20.3: the starter compiles and scores 0/10" ||
  failed "20.3: the starter should compile and score 0/10" "$work/starter.20.3"
jobs=()
for file in tests/grader/solutions/*/20.3-*; do jobs+=("check_solution $file"); done
in_parallel "${jobs[@]}"

# A student's program that misbehaves on the hidden inputs only (the book's
# input has 5 encoder positions): the book's tests and the printed output keep
# their points, the others lose theirs with a message, and the grader goes on.
misbehave() {  # misbehave NAME CODE MESSAGE
  local file=$work/$1.cpp log=$work/$1.log
  { echo '#include <chrono>'; echo '#include <thread>'
    sed "/\/\/ BEGIN SOLUTION/a\\    if (encoder.rows != 5) { $2 }" "$reference"; } > "$file"
  grade 20.3 "$file" "$log"
  if [ "$(test_score "$log" book_input)" = 1/1 ] && [ "$(test_score "$log" printed_output)" = 1/1 ] &&
     [ "$(test_score "$log" hidden_inputs)" = 0/4 ] && grep -q "hidden_inputs .*$3" "$log" && [ "$(total_of "$log")" = 2/10 ]; then
    ok "a program that $1 loses the hidden tests with '$3' and keeps the rest (2/10)"
  else failed "a program that $1 should lose the hidden tests with '$3'" "$log"; fi
}
in_parallel "misbehave crashes 'volatile int* p = nullptr; *p = 1;' 'segmentation fault'" \
  "misbehave hangs 'std::this_thread::sleep_for(std::chrono::hours(1));' 'still running after 3 seconds'" \
  "misbehave floods 'for (;;) std::puts(\"all work and no play\");' 'printed more than 1000000 bytes'" \
  "misbehave throws 'throw std::runtime_error(\"student gave up\");' 'threw an exception: student gave up'"

# Hostile submissions: the starter (nothing solved) with a trick added. None
# gains a point over the starter's 0/10. (The full attack suite is
# tests/grader/attacks.sh; these are the ones the grader's design answers.)
hostile() {  # hostile NAME: $work/hostile_NAME.code appended to the starter
  local file=$work/hostile_$1.cpp log=$work/hostile_$1.log
  cat "$starter" "$work/hostile_$1.code" > "$file"
  RESULTS=$work/hostile_$1.json grade 20.3 "$file" "$log"
  if [ "$status" -eq 1 ] && [ "$(total_of "$log")" = 0/10 ]; then ok "a starter that $(cat "$work/hostile_$1.what") gains nothing (0/10)"
  else failed "a starter that $(cat "$work/hostile_$1.what") should score 0/10" "$log"; fi
}
code() {  # code NAME WHAT < CODE: CACHE, WORK and REFERENCE in it replaced
  echo "$2" > "$work/hostile_$1.what"
  sed -e "s|CACHE|$GRADER_CACHE|g" -e "s|WORK|$work|g" -e "s|REFERENCE|$PWD/$reference|g" > "$work/hostile_$1.code"
}
code exec "execs the checker in its place" <<'CODE'
#include <unistd.h>
static int hijack = [] {
    char* a[] = {(char*)"CACHE/checker-20.3", (char*)"--lesson", nullptr};
    execv(a[0], a);
    return 0;
}();
CODE
code quits "exits 0 from atexit and before main" <<'CODE'
#include <cstdlib>
#include <unistd.h>
static int quit = (std::atexit([] { _exit(0); }), 0);
CODE
code macros "defines expect and rel_error for the grader" <<'CODE'
#define expect(...) expect(true, "")
namespace grader { inline double rel_error(double&, double&, double = 0) { return 0; } }
CODE
code leaves "leaves a child that rewrites results.json and the rows" <<'CODE'
#include <cstdio>
#include <unistd.h>
static int child = [] {
    if (fork() == 0) {
        setsid();
        sleep(2);
        for (const char* path : {"WORK/hostile_leaves.json", "../rows", "../../rows"})
            if (FILE* f = std::fopen(path, "w")) std::fputs("{\"score\": 100, \"tests\": []}", f), std::fclose(f);
        _exit(0);
    }
    return 0;
}();
CODE
code includes "includes the reference by its path" <<'CODE'
#include "REFERENCE"
CODE
code garbage "writes garbage where the driver answers" <<'CODE'
#include <unistd.h>
static int junk = (write(4, "\xff\xff\xff\x7fgarbage", 11), 0);
CODE
in_parallel "hostile exec" "hostile quits" "hostile macros" "hostile leaves" "hostile includes" "hostile garbage"
sleep 3  # the child above would have written by now
if grep -q '"score": 0,' "$work/hostile_leaves.json" && check_json "$work/hostile_leaves.json" > /dev/null; then
  ok "results.json is as the grader wrote it, after the child's time to rewrite it"
else failed "results.json was changed after the run" "$work/hostile_leaves.json"; fi
# At run time, the sandbox shows the student's program neither the reference nor the grader's files.
cache_checker=$GRADER_CACHE/checker-20.3
probe_file=$work/hostile_reads.cpp
{ cat "$starter" | sed 's/^int main(/[[maybe_unused]] static int unused_main(/'
  echo '#include <cstdio>'
  echo 'int main() {'
  echo "    const char* secrets[] = {\"$PWD/$reference\", \"$cache_checker\", \"$work/list.20.3\"};"
  echo '    bool read = false;'
  echo '    for (const char* s : secrets) if (FILE* f = std::fopen(s, "r")) read = true, std::fclose(f);'
  echo '    std::puts(read ? "LEAKED" : "SEALED");'
  echo '    return 0;'
  echo '}'; } > "$probe_file"
grade 20.3 "$probe_file" "$work/hostile_reads.log"
mode=$(bash tests/grader/sandbox.sh probe)
case "$mode" in
bwrap-uid | bwrap)
  grep -q "printed_output .*the word 'SEALED'" "$work/hostile_reads.log" &&
    ok "sandbox $mode: the student's program cannot open the reference, the checker or the grader's files" ||
    failed "sandbox $mode: the student's program could open a grader file" "$work/hostile_reads.log" ;;
*) echo "skipped: the run-time reading check needs bubblewrap (sandbox $mode)" ;;
esac
# The other sandboxes grade the reference as well.
for other in uid none; do
  [ "$other" = uid ] && [ "$(id -u)" -ne 0 ] && continue
  GRADER_SANDBOX=$other grade 20.3 "$reference" "$work/sandbox_$other.log"
  [ "$status" -eq 0 ] && ok "sandbox $other: the reference scores full marks" || failed "sandbox $other: the reference" "$work/sandbox_$other.log"
done

# The reference printing its row sums to 4 decimals, or every line ending in
# CRLF, still passes: the printed output is read as words and numbers.
reformatted() {  # reformatted NAME SED-EXPRESSION
  local file=$work/$1.cpp log=$work/$1.log
  sed "$2" "$reference" > "$file"
  cmp -s "$file" "$reference" && { failed "the $1 variant changes nothing"; return; }
  grade 20.3 "$file" "$log"
  [ "$status" -eq 0 ] && ok "the reference with $1 still scores 10/10" || failed "the reference with $1 should still pass" "$log"
}
in_parallel "reformatted four_decimal_sums 's/std::printf(\" %.3f\", sum);/std::printf(\" %.4f\", sum);/'" \
  "reformatted crlf_line_endings 's/\\\\n\"/\\\\r\\\\n\"/g'"

# A file that does not compile: every test loses its points, the compiler's message is shown.
printf '#include "attention109.hpp"\nint main() { return undeclared_name; }\n' > "$work/broken.cpp"
grade 20.3 "$work/broken.cpp" "$work/broken.log"
if [ "$status" -eq 1 ] && [ "$(total_of "$work/broken.log")" = 0/10 ] && grep -q undeclared_name "$work/broken.log" &&
   grep -q "did not compile" "$work/broken.log"; then ok "a file that does not compile scores 0/10 and shows the compiler's message"
else failed "a file that does not compile" "$work/broken.log"; fi

# An empty file says so, not with the tests file's compile errors; a function
# whose parameters differ from the statement's names both declarations.
printf '\n  \n' > "$work/empty.cpp"
grade 20.3 "$work/empty.cpp" "$work/empty.log"
if [ "$status" -eq 1 ] && grep -q "The file is empty" "$work/empty.log" && ! grep -q "did not compile" "$work/empty.log"; then
  ok "an empty file scores 0/10 with 'The file is empty'"
else failed "an empty file should be said to be empty" "$work/empty.log"; fi
solved_copy 20.3
sed 's/^static Attention cross_attention(const Matrix& decoder,/static Attention cross_attention(Matrix\& decoder,/' \
  "$solved" > "$work/signature.cpp"
grade 20.3 "$work/signature.cpp" "$work/signature.log"
if grep -q "cross_attention's signature differs from the statement's: yours is Attention cross_attention(Matrix&," "$work/signature.log"; then
  ok "a function whose parameter is Matrix& where the statement has const Matrix& is told its signature differs"
else failed "a function with another parameter type should be told its signature differs" "$work/signature.log"; fi

# results.json: valid, with the fields Gradescope reads (EX=3 is 20.3).
RESULTS=$work/pass.json TMPDIR=$work/tmp bash tests/grader/grade.sh 3 "$reference" > "$work/three.log" 2>&1
[ "$?" -eq 0 ] && grep -q "^Exercise 20.3 " "$work/three.log" && ok "EX=3 still means exercise 20.3" || failed "EX=3 should mean 20.3" "$work/three.log"
tool=$GRADER_CACHE/gradetool
if check_json "$work/pass.json" > "$work/json.log" 2>&1 && grep -q '"score": 10,' "$work/pass.json"; then
  ok "results.json of a full score is valid, has Gradescope's fields and score 10"
else failed "results.json of a full score" "$work/json.log"; fi
# A failed test after a test on hidden inputs shows the student no message: the
# program could have kept a hidden input in a file and answered with it later.
printf 'book_input\t1\t1\t0\tpassed\t\nhidden_inputs\t0\t3\t1\tcase1 SECRET1\tstep\nlater\t0\t2\t0\tgot SECRET2\tstep\n' > "$work/after.rows"
echo "Exercise 20.3" > "$work/after.header"
"$tool" report "$work/after.rows" "$work/after.header" "$work/after.json" > /dev/null 2>&1
if [ "$(grep -v '"visibility": "hidden"' "$work/after.json" | grep -c SECRET)" -eq 0 ] &&
   grep '"visibility": "hidden"' "$work/after.json" | grep -q 'SECRET1.*SECRET2'; then
  ok "results.json shows the student no message of a test on hidden inputs or after one; the teacher's report has both"
else failed "messages after a hidden test in results.json" "$work/after.json"; fi

# Gradescope: make gradescope's folder as /autograder/source, run_autograder on
# a wrong submission and on a submission with no .cpp file.
SEED=4242 bash tests/grader/gradescope.sh 20.3 "$work/gradescope" > "$work/gs.log" 2>&1 || failed "make gradescope EX=20.3" "$work/gs.log"
for f in setup.sh run_autograder EXERCISE tests/grader/grade.sh; do
  [ -f "$work/gradescope/$f" ] || failed "the Gradescope folder has no $f"
done
mkdir -p "$work/ag/submission" "$work/ag_empty/submission"
cp -R "$work/gradescope" "$work/ag/source" && cp -R "$work/gradescope" "$work/ag_empty/source"
cp "$work/solutions/wrong/20.3-scaled_scores/ex3_Cross_Attention.cpp" "$work/ag/submission/ex3_Cross_Attention.cpp"
TMPDIR=$work/tmp AUTOGRADER=$work/ag bash "$work/ag/source/run_autograder" > "$work/ag.log" 2>&1
fail_json=$work/ag/results/results.json
if check_json "$fail_json" > "$work/json.log" 2>&1 && grep -q '"score": 0,' "$fail_json" &&
   grep -q '^0/10 points$' "$work/ag/results/report.txt" &&
   grep -q '"status": "failed", "output": "weights (3 x 5)' "$fail_json" && grep -q 'Hint: ' "$fail_json"; then
  ok "run_autograder grades /autograder/submission into a valid results.json (0/10 there and on the terminal, failed tests with message and hint)"
else failed "run_autograder on a wrong solution" "$work/ag.log"; fi
# What the student sees: a hidden test's pass or fail and hint, no seed, no
# hidden numbers; the teacher's test (hidden) has them.
student_view=$(sed -n '/"visibility": "hidden"/!p' "$fail_json")
if printf '%s' "$student_view" | grep -q '"name": "hidden_inputs", "score": 0, "max_score": 4, "status": "failed", "output": "failed on inputs that are not shown' &&
   ! printf '%s' "$student_view" | grep -q 'Seed [0-9]' && ! printf '%s' "$student_view" | grep -q 'case1' &&
   grep '"visibility": "hidden"' "$fail_json" | grep -q 'Seed [0-9].*case1'; then
  ok "results.json shows the student no seed and no hidden input's numbers; the teacher's hidden test has both"
else failed "results.json's visibility" "$fail_json"; fi
# The zip's seed, not the environment's nor a new draw, grades every submission.
if [ "$(cat "$work/gradescope/SEED" 2> /dev/null)" = 4242 ] && grep '"visibility": "hidden"' "$fail_json" | grep -q 'Seed 4242 '; then
  ok "make gradescope SEED=4242 puts the seed in the zip, and run_autograder grades with it"
else failed "the Gradescope zip's seed (SEED=4242)" "$fail_json"; fi
TMPDIR=$work/tmp AUTOGRADER=$work/ag_empty bash "$work/ag_empty/source/run_autograder" > "$work/ag.log" 2>&1
if check_json "$work/ag_empty/results/results.json" > "$work/json.log" 2>&1 && grep -q '"score": 0' "$work/ag_empty/results/results.json" &&
   grep -q 'Submit one file, ex3_Cross_Attention.cpp' "$work/ag_empty/results/results.json"; then
  ok "run_autograder with nothing submitted writes a valid results.json that says what to submit"
else failed "run_autograder with nothing submitted" "$work/ag_empty/results/results.json"; fi

# Gradescope's layout as root: setup.sh (apt-get stood in for) builds the
# checker and closes the sources; a submission that opens the reference or
# runs the checker, as the student's uid, gains nothing.
if [ "$(id -u)" -eq 0 ]; then
  layout=$(mktemp -d /tmp/gradescope-layout.XXXXXX) && chmod 755 "$layout"
  mkdir -p "$layout/fake" "$layout/submission"
  printf '#!/bin/sh\nexit 0\n' > "$layout/fake/apt-get" && chmod +x "$layout/fake/apt-get"
  cp -R "$work/gradescope" "$layout/source"
  PATH=$layout/fake:$PATH TMPDIR=$work/tmp bash "$layout/source/setup.sh" > "$work/setup.log" 2>&1 ||
    failed "setup.sh in Gradescope's layout" "$work/setup.log"
  { sed 's/^int main(/[[maybe_unused]] static int unused_main(/' "$starter"
    echo '#include <cstdio>'
    echo '#include <unistd.h>'
    echo 'int main() {'
    echo "    char* a[] = {(char*)\"$layout/source/.grader-cache/checker-20.3\", (char*)\"--lesson\", nullptr};"
    echo "    FILE* f = std::fopen(\"$layout/source/$reference\", \"r\");"
    echo '    std::puts(f ? "LEAKED" : "SEALED");'
    echo '    std::fflush(stdout);'
    echo '    execv(a[0], a);'
    echo '    return 0;'
    echo '}'; } > "$layout/submission/$(basename "$reference")"
  for sandbox in bwrap-uid uid; do
    [ "$sandbox" = bwrap-uid ] && [ "$(bash tests/grader/sandbox.sh probe)" != bwrap-uid ] && continue
    rm -rf "$layout/results"
    GRADER_SANDBOX=$sandbox TMPDIR=$work/tmp AUTOGRADER=$layout bash "$layout/source/run_autograder" > "$work/layout.log" 2>&1
    if check_json "$layout/results/results.json" > /dev/null && grep -q '"score": 0,' "$layout/results/results.json" &&
       grep -q "the word 'SEALED'" "$layout/results/results.json"; then
      ok "Gradescope as root ($sandbox): the student's uid cannot read /autograder/source or run the checker (0/10)"
    else failed "Gradescope as root ($sandbox): a submission reading the sources" "$layout/results/results.json"; fi
  done
  rm -rf "$layout"
else echo "skipped: Gradescope's layout as root (not root)"; fi

# The same seed draws the same hidden inputs: a replay prints the same report.
grade 20.3 "$work/solutions/wrong/20.3-max_starts_at_zero/ex3_Cross_Attention.cpp" "$work/replay.log"
cmp -s "$work/solutions/wrong/20.3-max_starts_at_zero.log" "$work/replay.log" && ok "SEED=2026 replays the same report" || failed "SEED=2026 should replay the same report" "$work/replay.log"

# make exercises: a folder with the reference done and nothing else.
mkdir -p "$work/learner/20.3"
cp "$reference" "$work/learner/20.3/"
TMPDIR=$work/tmp bash tests/grader/grade.sh --folder "$work/learner" > "$work/learner.log" 2>&1
grep -qE '^  20\.3 +ex3_Cross_Attention\.cpp +10/10 points +done' "$work/learner.log" && grep -q "1 of 1 exercises done" "$work/learner.log" &&
  ok "make exercises lists 20.3 as done, 10/10" || failed "make exercises on a folder with 20.3 done" "$work/learner.log"
cp "$work/starter/20.3/$(basename "$reference")" "$work/learner/20.3/"
TMPDIR=$work/tmp bash tests/grader/grade.sh --folder "$work/learner" > "$work/learner.log" 2>&1
grep -q "^Next: exercise 20.3" "$work/learner.log" && ok "make exercises names 20.3 as the next to do" || failed "make exercises on a starter" "$work/learner.log"

# Bad input: one line on stderr, exit 2.
bad() {  # bad WHAT TEXT ARGS...
  local what=$1 text=$2
  shift 2
  TMPDIR=$work/tmp bash tests/grader/grade.sh "$@" > "$work/bad.out" 2> "$work/bad.err"
  local s=$?
  if [ "$s" -eq 2 ] && [ ! -s "$work/bad.out" ] && [ "$(wc -l < "$work/bad.err")" -eq 1 ] && grep -qF -- "$text" "$work/bad.err"; then ok "bad input: $what"
  else failed "bad input: $what: want exit 2 and one line with '$text', got $s" "$work/bad.err"; fi
}
bad "an unknown EX" "there is no exercise '20.9'" 20.9 "$reference"
bad "a word for EX" "there is no exercise 'three'" three "$reference"
bad "no EX" "EX is missing" "" "$reference"
bad "no SRC" "SRC is missing" 20.3
bad "a missing SRC" "cannot read SRC '$work/nothing.cpp': no such file" 20.3 "$work/nothing.cpp"
bad "a folder as SRC" "is a folder" 20.3 "$work"
SEED=x bad "a word for SEED" "SEED must be a whole number" 20.3 "$reference"
touch "$work/locked.cpp" && chmod 000 "$work/locked.cpp"
if [ -r "$work/locked.cpp" ]; then echo "skipped: an unreadable SRC (running as root, every file is readable)"
else bad "an unreadable SRC" "cannot read SRC" 20.3 "$work/locked.cpp"; fi

# A grading run leaves nothing behind: not in the repository, not in its TMPDIR.
[ "$(untracked)" = "$before" ] && ok "no new file in the repository" || failed "the checks left files in the repository: $(untracked | head -n 5)"
[ -z "$(ls -A "$work/tmp")" ] && ok "every grading run removed its temporary folder" || failed "left in TMPDIR: $(ls -A "$work/tmp" | head -n 5)"

total_failed=$(( failures ))
echo "grader checks: $total_failed failed"
[ "$total_failed" -eq 0 ]
