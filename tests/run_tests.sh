#!/usr/bin/env bash
# make test: runs every program against its golden output, checks the book's
# quoted numbers, runs the property and gradient checks, and ends with
# "N passed, M failed". Exits non-zero if anything failed.
#
#   tests/golden/<folder>/<program>.txt          expected stdout of build/<folder>/<program>
#   tests/golden/<folder>/<program>@<case>.txt   a second run of the same program ...
#   tests/golden/<folder>/<name>.args            ... with these arguments (shell words)
#   tests/fixtures/book_claims.tsv               golden name <TAB> text its output must contain <TAB> section
#   tests/unit/*.cpp                             unit-test programs: exit 0 means pass
#   tests/checks/*.sh                            check scripts, given the build folder: exit 0 means pass,
#                                                exit 77 skipped (what it needs is missing; its last line says what)
# (tests/README.md: which test covers which program.)
#
# make test reads --list, runs every test it names into BUILD/checks/ with --run, each as
# soon as what it runs is built; then this script, with no mode, reads their logs and reports.
# With --golden it rewrites the golden files instead of comparing.
#   --list       what make test builds and runs, as EXERCISES (tests/wanted.sh) selects: the
#                programs' sources (chapter*/...cpp), then the check scripts and unit tests
#   --run TEST   a check: its output to BUILD/checks/TEST.log; a program's source: each of its
#                goldens, to BUILD/checks/tests/golden/NAME.txt.log
#
set -u
build=${1:-build}
mode=${2:-compare}
cd "$(dirname "$0")/.."
export NO_COLOR=1
export BUILD=$build
export RUN=${RUN:-}

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "PASS  $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP  $1"; }

# Runs a golden's program with its arguments; stdout to $2, stderr to $2.err,
# its exit status to $2.status.
run_golden() {
  local name=$1 out=$2 program=${1%@*} args=()
  if [ -f "tests/golden/$name.args" ]; then eval "args=($(cat "tests/golden/$name.args"))"; fi
  $RUN "$build/$program" "${args[@]}" > "$out" 2> "$out.err" < /dev/null
  echo $? > "$out.status"
  [ -n "${TEXT_CRLF:-}" ] && sed -i 's/\r$//' "$out" "$out.err"
}

check_log() { echo "$build/checks/$1.log"; }
run_check() {  # run_check CHECK: its output to check_log, its exit status to check_log.status
  local log start=$SECONDS; log=$(check_log "$1")
  mkdir -p "$(dirname "$log")"
  case "$1" in
    *.cpp) $RUN "$build/${1%.cpp}" > "$log" 2>&1 ;;
    *) bash "$1" "$build" > "$log" 2>&1 ;;
  esac
  echo $? > "$log.status"
  echo $((SECONDS - start)) > "$log.seconds"  # for the report's slowest checks
}
# A program's goldens, each the run of one tests/golden file; a program with
# none yet runs once with no arguments, so that make golden writes its first
# (but tiny_train, a tool that trains for minutes: its checks cover it).
goldens_of() {  # goldens_of PROGRAM: its golden files, or the one to write
  local program=$1 golden found=
  for golden in "tests/golden/$program.txt" "tests/golden/$program"@*.txt; do
    [ -f "$golden" ] && { echo "$golden"; found=1; }
  done
  [ -n "$found" ] || [ "$program" = chapter_tiny/tiny_train ] || echo "tests/golden/$program.txt"
}
run_goldens_of() {
  local golden name
  for golden in $(goldens_of "$1"); do
    name=${golden#tests/golden/}
    mkdir -p "$(dirname "$(check_log "$golden")")"
    run_golden "${name%.txt}" "$(check_log "$golden")"
  done
}
if [ "$mode" = --run ]; then
  case "$3" in
    tests/*) run_check "$3" ;;
    *.cpp) run_goldens_of "${3%.cpp}" ;;
  esac
  exit 0
fi
source tests/wanted.sh  # wanted: what EXERCISES selects
checks=() left_out=()  # left out: the grader's checks under GRADER_CHECKS=no (tests/wanted.sh)
for check in tests/checks/*.sh tests/unit/*.cpp; do
  [ -f "$check" ] || continue
  if wanted "$check"; then checks+=("$check")
  elif GRADER_CHECKS=yes wanted "$check"; then left_out+=("$check"); fi
done
if [ "$mode" = --list ]; then
  for src in chapter*/*.cpp chapter*/*/*.cpp; do [ -f "$src" ] && wanted "$src" && echo "$src"; done
  for check in ${checks[@]+"${checks[@]}"}; do echo "$check"; done
  exit 0
fi
goldens=()
while IFS= read -r golden; do wanted "$golden" && goldens+=("$golden"); done < <(find tests/golden -name '*.txt' | sort)
# make golden also writes the first golden of a program that has none yet.
if [ "$mode" = --golden ]; then
  for src in chapter*/*.cpp chapter*/*/*.cpp; do
    golden=$(goldens_of "${src%.cpp}" | head -n 1)
    if [ -n "$golden" ] && [ ! -f "$golden" ] && wanted "$src"; then goldens+=("$golden"); fi
  done
fi
golden_out() { check_log "tests/golden/$1.txt"; }  # golden_out NAME: where its run's output is

# 1. Every lesson has a golden file.
[ "$mode" = --golden ] || while IFS=$'\t' read -r lesson _; do
  wanted "$lesson" || continue
  if [ -f "tests/golden/$lesson.txt" ]; then pass "$lesson has a golden file"
  else fail "$lesson has no golden file tests/golden/$lesson.txt"; fi
done < <(bash tests/lessons.sh)

# 2. Every golden: the program's stdout, byte for byte.
for golden in "${goldens[@]}"; do
  name=${golden#tests/golden/}; name=${name%.txt}
  out=$(golden_out "$name")
  status=$(cat "$out.status" 2> /dev/null)
  if [ ! -f "${name%@*}.cpp" ] || [ -z "$status" ]; then
    fail "$name was not run: no program ${name%@*}.cpp, or not run by make test"
  elif [ "$status" -ne 0 ]; then
    fail "$name exited with status $status ($(head -c 300 "$out.err"))"
  elif [ "$mode" = --golden ]; then
    cmp -s "$out" "$golden" || { mkdir -p "$(dirname "$golden")" && cp "$out" "$golden"; echo "wrote $golden"; }
  elif diff -u "$golden" "$out" > "$out.diff"; then
    pass "$name matches its golden"
  else
    fail "$name differs from $golden:"; head -n 40 "$out.diff" | sed 's/^/      /'
  fi
done
[ "$mode" = --golden ] && { echo "goldens written: check each diff with git diff tests/golden"; exit 0; }

# 3. Each number or phrase the book quotes appears in that program's output.
while IFS=$'\t' read -r name text section _; do
  case "$name" in ''|'#'*) continue ;; esac
  wanted "$name" || continue
  out=$(golden_out "$name")
  if [ -f "$out" ] && grep -qF -- "$text" "$out"; then pass "$name prints '$text' ($section)"
  else fail "$name should print '$text' (book section $section)"; fi
done < tests/fixtures/book_claims.tsv

# 4. Check programs and check scripts.
for check in "${checks[@]}"; do
  case "$check" in *.cpp) ;; *) continue ;; esac
  log=$(check_log "$check")
  if [ "$(cat "$log.status")" -eq 0 ]; then pass "$check"
  else fail "$check:"; tail -n 20 "$log" | sed 's/^/      /'; fi
done
for check in "${checks[@]}"; do
  case "$check" in *.sh) ;; *) continue ;; esac
  log=$(check_log "$check"); status=$(cat "$log.status")
  if [ "$status" -eq 0 ]; then pass "$check"
  elif [ "$status" -eq 77 ]; then skip "$check: $(tail -n 1 "$log")"
  else fail "$check:"; tail -n 20 "$log" | sed 's/^/      /'; fi
done

for check in ${left_out[@]+"${left_out[@]}"}; do skip "$check: GRADER_CHECKS=no (the grader's flags do not follow OPT)"; done

# The slowest checks, where make test's time goes (wall seconds, side by side with others).
slowest=$(for check in ${checks[@]+"${checks[@]}"}; do
  echo "$(cat "$(check_log "$check").seconds" 2> /dev/null || echo 0) $check"; done | sort -rn | head -n 3 | awk '{ printf "%s%s %d s", (NR > 1 ? ", " : ""), $2, $1 }')
echo
echo "slowest checks: $slowest"
echo "$passed passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
