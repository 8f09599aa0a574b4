# tests/grader/checks.sh: what the grader's checks share, sourced first by check_all.sh,
# attacks.sh, class_check.sh and tests/checks/grader_*.sh: the repository root, lib.sh, a
# scratch folder $work (removed on exit), "FAILED:" lines counted, and each exercise's checks.
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

# in_parallel "CHECK ARGS" ...: two at a time (the machine has two cores), then their
# lines in order (kept in $records); a check that says nothing counts as failed.
records=$work
in_parallel() {
  local k=0 c
  for c in "$@"; do
    k=$((k + 1))
    # The next check starts when either running one ends, so a slow one keeps only its own core
    # (polled: macOS's bash 3.2 has no wait -n).
    while [ "$(jobs -pr | wc -l)" -ge "${CHECK_JOBS:-2}" ]; do sleep 0.1; done
    ( failures=0; eval "$c" || echo "FAILED: $c stopped with status $?" ) > "$records/parallel.$k" 2>&1 &
  done
  wait
  for c in $(seq 1 "$k"); do
    grep -qE '^(ok|FAILED|pending|skipped):' "$records/parallel.$c" ||
      echo "FAILED: check $c said nothing" >> "$records/parallel.$c"
    cat "$records/parallel.$c"
    failures=$((failures + $(grep -c '^FAILED' "$records/parallel.$c")))
  done
}

grade() {
  TMPDIR=$work/tmp bash tests/grader/grade.sh "$1" "$2" > "$3" 2>&1
  status=$?
}
total_of() { grep -E '^[0-9]+/[0-9]+ points$' "$1" | tail -n 1 | cut -d' ' -f1; }  # "7/10"
# test_score LOG NAME: "2/2"
test_score() { awk -v n="$2" '$1 == n && $2 ~ /^[0-9]+\/[0-9]+$/ { print $2; exit }' "$1"; }
full() { [ -n "$1" ] && [ "${1%/*}" = "${1#*/}" ]; }

# grade_seeds ID FILE LOG: FILE graded at each of $seeds (check_all.sh --seeds; else SEED);
# LOG, $status and $total are the first's, $unsteady names the seeds that gave another total.
grade_seeds() {
  local list=(${seeds:-$SEED}) s others=
  for s in "${list[@]:1}"; do SEED=$s grade "$1" "$2" "$3.$s"; others="$others $s:$(total_of "$3.$s")"; done
  SEED=${list[0]} grade "$1" "$2" "$3"
  total=$(total_of "$3")
  unsteady=
  for s in $others; do [ "${s#*:}" = "$total" ] || unsteady="$unsteady seed ${s%%:*} gave ${s#*:};"; done
}

# solved_copy ID: the exercise as a student who solved it hands it in, in $solved.
solved_copy() {
  local file
  file=$(exercise_file "$1")
  mkdir -p "$work/solved/$1"
  solved=$work/solved/$1/$(basename "$file")
  [ -f "$solved" ] || solved_exercise "$1" "$file" > "$solved"
}

# check_declaration ID: the README's "Add an exercise" rules that a grading would break without naming them (a
# header's region without its fence is cut from every box, and the reference fails through a link error).
check_declaration() {
  local file bad= fence="\"// BEGIN SOLUTION exercise $1: ...\""
  file=$(exercise_file "$1")
  grep -q '^// Book section: ' "$file" || bad="$bad $file has no line '// Book section: <section> (exercise $1)';"
  grep -q '^int main(' "$file" || bad="$bad $file has no line starting 'int main(' (the golden printer renames it);"
  bad="$bad$(awk -v fence="${fence/$1/<id>}" '/^[ \t]*\/\/ BEGIN SOLUTION/ && !/BEGIN SOLUTION exercise [^ :]+:/ {
    printf " %s:%d: a header'"'"'s solution region needs the fence %s;", FILENAME, FNR, fence }
  ' /dev/null $(needed_headers "$file"))"
  # A region of STUB lines only takes its code from the header's fence (lib.sh's solved_exercise).
  awk '/^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; code = 0; next }
    /^[ \t]*\/\/ END SOLUTION/ { stubs += inside && !code; inside = 0 } inside && !/^[ \t]*\/\/ STUB:/ { code = 1 }
    END { exit stubs > 0 }' "$file" ||
    grep -qF "// BEGIN SOLUTION exercise $1:" /dev/null $(needed_headers "$file") ||
    bad="$bad $file's answer is a header's (a region of STUB lines only), but no header it includes has a fence $fence;"
  [ -z "$bad" ] || { failed "$1:$bad"; return 1; }
}

check_reference() {  # check_reference ID: the solved exercise scores full marks, at every seed
  local id=$1 solved log=$work/reference.$1
  solved_copy "$id"
  grade_seeds "$id" "$solved" "$log"
  if [ "$status" -eq 0 ] && full "$total" && [ -z "$unsteady" ]; then ok "$id: the reference scores full marks ($total)"
  else failed "$id: the reference should score full marks, got '$total' (status $status)$unsteady" "$log"; fi
}

# check_solution FILE: the README's "Solutions" says what each must score.
check_solution() {
  local file=$1 kind id what exercise dir out log name score bad=
  kind=$(basename "$(dirname "$file")")
  id=$(basename "$file"); id=${id%%-*}
  if [ "$kind" = wrong ]; then what=$(header_of "$file" Wrong); else what=$(header_of "$file" Right); fi
  exercise=$(exercise_file "$id")
  [ -n "$exercise" ] || { failed "$file: there is no exercise '$id' (the name starts with the exercise's id)"; return; }
  dir=$work/solutions/$kind/$(basename "${file%.*}") log=$dir.log
  mkdir -p "$dir"
  solved_copy "$id"
  cut_solutions "$exercise" > "$dir.starter"
  out=$(STARTER=$dir.starter SOLVED=$solved submission "$file" "$id" "$dir") || { failed "$file: $out"; return; }
  grade_seeds "$id" "$out" "$log"
  grep -q "did not compile\|The compiler's warnings" "$log" && bad="$bad it does not compile without warnings;"
  for name in $(header_of "$file" Loses); do  # "# Loses:" in a .sed, "// Loses:" in a .cpp
    score=$(test_score "$log" "$name")
    [ -n "$score" ] && [ "${score%/*}" -eq 0 ] || bad="$bad $name should score 0, got '$score';"
  done
  for name in $(header_of "$file" Keeps); do
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
