# tests/grader/checks.sh: the checks every exercise gets, as functions shared by
# tests/checks/grader_20.3.sh (make test) and tests/grader/check_all.sh
# (make check-exercises-all). Sourced from the repository root after lib.sh,
# with $work set to a scratch folder. Each check prints "ok: ..." or
# "FAILED: ..." and counts failures in $failures.
failures=${failures:-0}
ok() { echo "ok: $1"; }
failed() {
  echo "FAILED: $1"
  [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    /' "$2"
  failures=$((failures + 1))
}

# in_parallel "CHECK ARGS" ...: runs the checks two at a time (the machine has
# two cores), then prints their lines in order and counts their failures.
in_parallel() {
  local k=0 c
  for c in "$@"; do
    k=$((k + 1))
    # A check that stops without saying ok or FAILED (a bug in it) counts as failed.
    ( failures=0; eval "$c" || echo "FAILED: $c stopped with status $?"
      ) > "$work/parallel.$k" 2>&1 &
    [ $((k % 2)) -eq 0 ] && wait
  done
  wait
  for c in $(seq 1 "$k"); do
    grep -qE '^(ok|FAILED):' "$work/parallel.$c" || echo "FAILED: check $c said nothing" >> "$work/parallel.$c"
    cat "$work/parallel.$c"
    failures=$((failures + $(grep -c '^FAILED' "$work/parallel.$c")))
  done
}

# grade ID FILE LOG: grades FILE as exercise ID into LOG; its status in $status.
grade() {
  TMPDIR=$work/tmp bash tests/grader/grade.sh "$1" "$2" > "$3" 2>&1
  status=$?
}
total_of() { grep -E '^[0-9]+/[0-9]+ points$' "$1" | tail -n 1 | cut -d' ' -f1; }  # "7/10"
# test_score LOG NAME: "2/2" for that test's row of the table.
test_score() { awk -v n="$2" '$1 == n && $2 ~ /^[0-9]+\/[0-9]+$/ { print $2; exit }' "$1"; }
full() { [ -n "$1" ] && [ "${1%/*}" = "${1#*/}" ]; }
points_of() {  # points_of ID NAME: the test's points, from the reference's row
  awk -F'\t' -v n="$2" '$1 == n { print $2 }' "$work/list.$1"
}

# The list of an exercise's tests, from a grading of its reference.
# solved_copy ID: writes the exercise as a student who solved it hands it in
# (lib.sh's solved_exercise) into $work/solved/ID/, and names it in $solved.
solved_copy() {
  local file
  file=$(exercise_file "$1")
  mkdir -p "$work/solved/$1"
  solved=$work/solved/$1/$(basename "$file")
  [ -f "$solved" ] || solved_exercise "$1" "$file" > "$solved"
}

check_reference() {  # check_reference ID: the solved exercise scores full marks
  local id=$1 solved log=$work/reference.$1
  solved_copy "$id"
  grade "$id" "$solved" "$log"
  local total
  total=$(total_of "$log")
  if [ "$status" -eq 0 ] && full "$total"; then ok "$id: the reference scores full marks ($total)"
  else failed "$id: the reference should score full marks, got '$total' (status $status)" "$log"; fi
  # Tests and points, as "name<TAB>points" lines, for the other checks.
  awk '/^  test  / { on = 1; next } on && NF == 0 { exit } on { split($2, p, "/"); print $1 "\t" p[2] }' "$log" > "$work/list.$id"
}

check_starter() {  # check_starter ID: the handout's starter compiles and scores below full
  local id=$1 file name log=$work/starter.$1 total
  file=$(exercise_file "$id")
  name=$(basename "$file")
  mkdir -p "$work/starter/$id"
  cut_solutions "$file" > "$work/starter/$id/$name"
  grade "$id" "$work/starter/$id/$name" "$log"
  total=$(total_of "$log")
  if grep -q "did not compile" "$log"; then failed "$id: the starter does not compile" "$log"
  elif [ "$status" -eq 1 ] && ! full "$total"; then ok "$id: the starter compiles and scores below full ($total)"
  else failed "$id: the starter should score below full marks, got '$total' (status $status)" "$log"; fi
}

# The starter with its main renamed and a main that prints the reference's
# output from a string: no attention computed at all.
check_printer() {  # check_printer ID
  local id=$1 file golden log=$work/printer.$1 total output_points
  file=$(exercise_file "$id")
  golden=tests/golden/${file%.cpp}.txt
  [ -f "$golden" ] || { failed "$id: no golden file $golden for the printed-output check"; return; }
  mkdir -p "$work/printer/$id"
  local printer=$work/printer/$id/$(basename "$file")
  cut_solutions "$file" > "$printer.starter"
  golden_printer "$printer.starter" "$golden" > "$printer"
  grep -q 'unused_main(' "$printer" || { failed "$id: the exercise's main does not start a line with 'int main('"; return; }
  grade "$id" "$printer" "$log"
  total=$(total_of "$log")
  output_points=$(points_of "$id" printed_output)
  if grep -q "did not compile" "$log"; then failed "$id: the golden printer does not compile" "$log"
  elif [ -n "$total" ] && [ -n "$output_points" ] && [ "${total%/*}" -le "$output_points" ] &&
       full "$(test_score "$log" printed_output)"; then
    ok "$id: printing the golden text scores $total, only the printed-output test's $output_points"
  else failed "$id: printing the golden text should score at most the printed_output test's '$output_points' points (and pass it), got '$total'" "$log"; fi
}

# A wrong solution: a sed script applied to the solved exercise, whose comment lines
# say which tests it must lose ("# Loses:") and which it keeps ("# Keeps:").
# variant SEDFILE KIND: the solved exercise with the script applied, graded
# into $log ($id, $what from the "# Exercise:" and "# KIND:" lines, $total, $status).
variant() {
  local sedfile=$1 kind=$2 file out solved
  id=$(sed -n 's/^# Exercise: *//p' "$sedfile")
  what=$(sed -n "s/^# $kind: *//p" "$sedfile")
  file=$(exercise_file "$id")
  [ -n "$file" ] || { failed "$sedfile: no exercise '$id'"; return 1; }
  mkdir -p "$work/variants"
  out=$work/variants/$(basename "$sedfile" .sed).cpp
  log=$work/variants/$(basename "$sedfile" .sed).log
  solved_copy "$id"
  sed -f "$sedfile" "$solved" > "$out"
  if cmp -s "$solved" "$out"; then failed "$sedfile changes nothing in $file's solution"; return 1; fi
  grade "$id" "$out" "$log"
  total=$(total_of "$log")
}

check_wrong() {  # check_wrong SEDFILE
  local sedfile=$1 id log total name what score status
  variant "$sedfile" Wrong || return
  local bad=0
  for name in $(sed -n 's/^# Loses: *//p' "$sedfile"); do
    score=$(test_score "$log" "$name")
    [ -n "$score" ] && [ "${score%/*}" -eq 0 ] || { bad=1; echo "    $name should score 0, got '$score'"; }
  done
  for name in $(sed -n 's/^# Keeps: *//p' "$sedfile"); do
    score=$(test_score "$log" "$name")
    full "$score" || { bad=1; echo "    $name should keep its points, got '$score'"; }
  done
  if [ "$bad" -eq 0 ] && [ "$status" -eq 1 ] && ! full "$total"; then ok "$id: wrong ($what) scores $total, losing the tests meant to catch it"
  else failed "$id: wrong solution $sedfile ($what): got '$total' (status $status)" "$log"; fi
}

# No line of any solution region (one that appears nowhere outside the
# regions) is in any file of a handout.
check_handout_clean() {  # check_handout_clean DIR
  local dir=$1 f
  : > "$work/solution_lines"
  : > "$work/other_lines"
  for f in chapter*/exercises/*.cpp chapter*/*.hpp chapter*/exercises/*.hpp common/*.hpp; do
    [ -f "$f" ] || continue
    solution_lines "$f" >> "$work/solution_lines"
    cut_solutions "$f" | sed 's/^[ \t]*//; s/[ \t\r]*$//' >> "$work/other_lines"
  done
  # Lines that also occur outside the regions (a lone "}", "return a;") say nothing.
  sort -u "$work/solution_lines" > "$work/solution_sorted"
  sort -u "$work/other_lines" > "$work/other_sorted"
  comm -23 "$work/solution_sorted" "$work/other_sorted" > "$work/distinctive"
  if [ ! -s "$work/distinctive" ]; then failed "no solution lines found to look for (are the markers there?)"; return; fi
  find "$dir" -type f -exec cat {} + | sed 's/^[ \t]*//; s/[ \t\r]*$//' | sort -u > "$work/handout_lines"
  comm -12 "$work/distinctive" "$work/handout_lines" > "$work/leaked"
  if [ -s "$work/leaked" ]; then failed "solution lines appear in the handout $dir:" "$work/leaked"
  else ok "none of the $(wc -l < "$work/distinctive") solution lines appears in the handout"; fi
}

# A right answer written differently: a sed script applied to the solved
# exercise ("# Right:" says how it differs) must still score full marks.
check_right() {  # check_right SEDFILE
  local sedfile=$1 id log total what status
  variant "$sedfile" Right || return
  if [ "$status" -eq 0 ] && full "$total"; then ok "$id: right, written differently ($what), scores full marks ($total)"
  else failed "$id: the right answer $sedfile ($what) should score full marks, got '$total' (status $status)" "$log"; fi
}
