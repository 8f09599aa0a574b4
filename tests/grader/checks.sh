# tests/grader/checks.sh: what the grader's checks share. Sourced first by
# check_all.sh, attacks.sh, class_check.sh and tests/checks/grader_*.sh: it
# moves to the repository root, sources lib.sh, makes the scratch folder $work
# (removed on exit), counts "FAILED:" lines in $failures, and defines the
# checks every exercise gets.
[ -z "${RUN:-}" ] || { echo "not under make cross: the grader runs where the teacher grades"; exit 77; }
set -u
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
. tests/grader/lib.sh
. tests/grader/attacks/lib/build.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/grader-check.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/tmp"
export GRADER_CACHE=$work/cache
failures=0
ok() { echo "ok: $1"; }
failed() {
  echo "FAILED: $1"
  [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    /' "$2"
  failures=$((failures + 1))
}

# in_parallel "CHECK ARGS" ...: two at a time (the machine has two cores), then
# their lines in order; a check that says neither ok nor FAILED counts as failed.
in_parallel() {
  local k=0 c
  for c in "$@"; do
    k=$((k + 1))
    ( failures=0; eval "$c" || echo "FAILED: $c stopped with status $?" ) > "$work/parallel.$k" 2>&1 &
    [ $((k % 2)) -eq 0 ] && wait
  done
  wait
  for c in $(seq 1 "$k"); do
    grep -qE '^(ok|FAILED|pending|skipped):' "$work/parallel.$c" || echo "FAILED: check $c said nothing" >> "$work/parallel.$c"
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
test_score() { awk -v n="$2" '$1 == n && $2 ~ /^[0-9]+\/[0-9]+$/ { print $2; exit }' "$1"; }  # test_score LOG NAME: "2/2"
full() { [ -n "$1" ] && [ "${1%/*}" = "${1#*/}" ]; }

# grade_seeds ID FILE LOG: grades FILE at each seed of $seeds (SEED alone unless
# check_all.sh --seeds sets them); LOG, $status and $total are the first seed's,
# $unsteady says which seeds gave another total.
grade_seeds() {
  local list=(${seeds:-$SEED}) s others=
  for s in "${list[@]:1}"; do SEED=$s grade "$1" "$2" "$3.$s"; others="$others $s:$(total_of "$3.$s")"; done
  SEED=${list[0]} grade "$1" "$2" "$3"
  total=$(total_of "$3")
  unsteady=
  for s in $others; do [ "${s#*:}" = "$total" ] || unsteady="$unsteady seed ${s%%:*} gave ${s#*:};"; done
}

# solved_copy ID: the exercise as a student who solved it hands it in
# (lib.sh's solved_exercise), in $solved.
solved_copy() {
  local file
  file=$(exercise_file "$1")
  mkdir -p "$work/solved/$1"
  solved=$work/solved/$1/$(basename "$file")
  [ -f "$solved" ] || solved_exercise "$1" "$file" > "$solved"
}

check_reference() {  # check_reference ID: the solved exercise scores full marks, at every seed
  local id=$1 solved log=$work/reference.$1
  solved_copy "$id"
  grade_seeds "$id" "$solved" "$log"
  if [ "$status" -eq 0 ] && full "$total" && [ -z "$unsteady" ]; then ok "$id: the reference scores full marks ($total)"
  else failed "$id: the reference should score full marks, got '$total' (status $status)$unsteady" "$log"; fi
  # Its tests and points, "name<TAB>points", for the other checks.
  awk '/^  test  / { on = 1; next } on && NF == 0 { exit } on { split($2, p, "/"); print $1 "\t" p[2] }' "$log" > "$work/list.$id"
}

check_starter() {  # check_starter ID: the handout's starter compiles and scores below full
  local id=$1 file log=$work/starter.$1 total
  file=$(exercise_file "$id")
  mkdir -p "$work/starter/$id"
  cut_solutions "$file" > "$work/starter/$id/$(basename "$file")"
  grade "$id" "$work/starter/$id/$(basename "$file")" "$log"
  total=$(total_of "$log")
  if grep -q "did not compile" "$log"; then failed "$id: the starter does not compile" "$log"
  elif [ "$status" -eq 1 ] && ! full "$total"; then ok "$id: the starter compiles and scores below full ($total)"
  else failed "$id: the starter should score below full marks, got '$total' (status $status)" "$log"; fi
}

# check_printer ID: the starter with a main that prints the golden text scores
# the printed-output test's points and no more.
check_printer() {
  local id=$1 file golden log=$work/printer.$1 total most printer
  file=$(exercise_file "$id")
  golden=tests/golden/${file%.cpp}.txt
  [ -f "$golden" ] || { failed "$id: no golden file $golden (make golden writes it)"; return; }
  mkdir -p "$work/printer/$id"
  printer=$work/printer/$id/$(basename "$file")
  cut_solutions "$file" > "$printer.starter"
  golden_printer "$printer.starter" "$golden" > "$printer"
  grep -q 'unused_main(' "$printer" || { failed "$id: the exercise's main does not start a line with 'int main('"; return; }
  grade "$id" "$printer" "$log"
  total=$(total_of "$log")
  most=$(awk -F'\t' '$1 == "printed_output" { print $2 }' "$work/list.$id")
  if [ -n "$total" ] && [ -n "$most" ] && [ "${total%/*}" -le "$most" ] && full "$(test_score "$log" printed_output)"; then
    ok "$id: printing the golden text scores $total, only the printed-output test's $most"
  else failed "$id: printing the golden text should score the printed_output test's '$most' points and no more, got '$total'" "$log"; fi
}

# check_solution FILE: a wrong solution (solutions/wrong/ID-*) compiles
# without a warning, scores below full at every seed, loses every test its
# "Loses:" line names and keeps every "Keeps:" one; a right one
# (solutions/right/ID-*) scores full marks at every seed.
check_solution() {
  local file=$1 kind id what exercise out log name score bad=
  kind=$(basename "$(dirname "$file")")
  id=$(basename "$file"); id=${id%%-*}
  if [ "$kind" = wrong ]; then what=$(header_of "$file" Wrong); else what=$(header_of "$file" Right); fi
  exercise=$(exercise_file "$id")
  [ -n "$exercise" ] || { failed "$file: there is no exercise '$id' (the name starts with the exercise's id)"; return; }
  mkdir -p "$work/solutions/$kind"
  out=$work/solutions/$kind/$(basename "${file%.*}").cpp
  log=${out%.cpp}.log
  solved_copy "$id"
  case "$file" in
  *.sed)
    sed -f "$file" "$solved" > "$out"
    cmp -s "$solved" "$out" && { failed "$file changes nothing in $id's solution"; return; } ;;
  *)
    cut_solutions "$exercise" > "$out.starter"
    apply_bodies "$file" "$out.starter" "$out" > "$log" || { failed "$file cannot be applied to $id's starter" "$log"; return; } ;;
  esac
  grade_seeds "$id" "$out" "$log"
  grep -q "did not compile\|The compiler's warnings" "$log" && bad="$bad it does not compile without warnings;"
  for name in $(sed -n 's/^# Loses: *//p' "$file"); do
    score=$(test_score "$log" "$name")
    [ -n "$score" ] && [ "${score%/*}" -eq 0 ] || bad="$bad $name should score 0, got '$score';"
  done
  for name in $(sed -n 's/^# Keeps: *//p' "$file"); do
    full "$(test_score "$log" "$name")" || bad="$bad $name should keep its points, got '$(test_score "$log" "$name")';"
  done
  if [ "$kind" = wrong ]; then
    [ "$status" -eq 1 ] && ! full "$total" || bad="$bad a wrong solution should score below full marks;"
  else
    [ "$status" -eq 0 ] && full "$total" || bad="$bad a right solution should score full marks;"
  fi
  if [ -z "$bad$unsteady" ]; then ok "$id: $kind ($what) scores $total"
  else failed "$id: $kind solution $file ($what) scores '$total':$bad$unsteady" "$log"; fi
}

# check_handout_clean DIR: no line of a solution region (one found nowhere
# outside the regions) is in any file of the handout DIR.
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
