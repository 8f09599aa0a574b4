#!/usr/bin/env bash
# Grades one exercise file:
#
#   make check-exercise EX=20.3 SRC=path/to/student.cpp
#   bash tests/grader/grade.sh 20.3 path/to/student.cpp
#
# Builds the exercise's tests (tests/grader/<id>.cpp) twice, against the
# reference solution and against the student's file, runs each named test in
# a process of its own with a time and an output limit, and prints a table
# (test, points, message), the total and a hint for each failed test.
# Exit 0 at full marks, 1 otherwise, 2 on a usage mistake (one line).
#
#   SEED=N        replay the hidden inputs of an earlier run (the report prints its seed)
#   RESULTS=FILE  also write Gradescope's results.json there
#   TIME_LIMIT=S  seconds per test (default 10); OUTPUT_LIMIT=BYTES (default 1000000)
#   CXX, CXXFLAGS the compiler and flags (default: the Makefile's)
#   GRADER_CACHE=DIR  keep the reference's build in DIR between runs (the checks use it)
set -u
usage="usage: make check-exercise EX=<id> SRC=<file.cpp>   (bash tests/grader/grade.sh <id> <file.cpp>)"
ex=${1:-}
src=${2:-}
[ -n "$src" ] && [ "${src#/}" = "$src" ] && src="$PWD/$src"
results=${RESULTS:-}
[ -n "$results" ] && [ "${results#/}" = "$results" ] && results="$PWD/$results"
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
. tests/grader/lib.sh

usage_error() { echo "check-exercise: $1" >&2; exit 2; }
[ -n "$ex" ] || usage_error "EX is missing: which exercise? (the exercises: $(exercise_ids))"
reference=$(exercise_file "$ex")
[ -n "$reference" ] || usage_error "there is no exercise '$ex'; the exercises: $(exercise_ids)"
id=$(exercise_id_of "$reference")
tests_file=tests/grader/$id.cpp
[ -f "$tests_file" ] || usage_error "exercise $id has no tests file $tests_file (a grader bug)"
[ -n "${2:-}" ] || usage_error "SRC is missing: which file should be graded?"
[ -e "$src" ] || usage_error "cannot read SRC '$2': no such file"
[ -d "$src" ] && usage_error "SRC '$2' is a folder; give one .cpp file (make exercises DIR=... grades a folder)"
[ -f "$src" ] && [ -r "$src" ] || usage_error "cannot read SRC '$2': permission denied or not a file"
seed=${SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000000 ))}
case "$seed" in '' | *[!0-9]*) usage_error "SEED must be a whole number, got '$seed'" ;; esac
time_limit=${TIME_LIMIT:-10}
case "$time_limit" in '' | *[!0-9]* | 0) usage_error "TIME_LIMIT must be a whole number of seconds, got '$time_limit'" ;; esac
limit=${OUTPUT_LIMIT:-1000000}
case "$limit" in '' | *[!0-9]* | 0) usage_error "OUTPUT_LIMIT must be a number of bytes, got '$limit'" ;; esac
if [ -n "$results" ]; then
  [ -d "$(dirname "$results")" ] || usage_error "RESULTS '$results': no such folder"
  [ -d "$results" ] && usage_error "RESULTS '$results' is a folder; give a file name"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX") || usage_error "cannot make a temporary folder"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# The student's file goes in src/file/, the handout's headers in src/ itself, so
# that both #include "attention109.hpp" and #include "../tiny_model.hpp" find
# the one copy of each (one file, so #pragma once holds).
mkdir -p "$work/src/file" "$work/run" "$work/out"

read -r -a cxx <<< "${CXX:-g++}"  # a word or more: "clang++ -stdlib=libc++"
read -r -a flags <<< "${CXXFLAGS:--std=c++17 -Og -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -Icommon}"
includes=($(include_flags "$reference"))  # folders without spaces: the repository's own

# The student builds against the handout's headers: solution regions cut. The
# grader's own (matrix.hpp, and the maths.hpp it includes) are copied too, so
# that an exercise including maths.hpp alone still finds one copy of it.
for header in $(needed_headers "$reference") $(needed_headers tests/grader/grader.hpp); do
  cut_solutions "$header" "$id" > "$work/src/$(basename "$header")" || exit 2  # other exercises' answers stay
done
# Data files a test file names on a "// Files:" line are copied into the run folder.
for data in $(sed -n 's|^// Files: *||p' "$tests_file"); do
  mkdir -p "$work/run/$(dirname "$data")" && cp "$data" "$work/run/$data"
done

# The reference's build (and gradetool) may come from GRADER_CACHE.
cache=${GRADER_CACHE:-}
if [ -n "$cache" ]; then mkdir -p "$cache" || usage_error "cannot use GRADER_CACHE '$cache'"; else cache=$work; fi
tool=$cache/gradetool
ref_bin=$cache/reference-$id

build() {  # build OUT SOURCE_COPY EXTRA_INCLUDE... : the tests file around one source
  local out=$1 source=$2
  shift 2
  "${cxx[@]}" "$@" "${flags[@]}" -Itests/grader "${includes[@]}" -DSTUDENT_SOURCE="\"$source\"" \
    "$tests_file" -o "$out" -pthread
}
submission=$work/src/file/submission.cpp
cp "$src" "$submission"
pids=()
if [ ! -x "$tool" ]; then
  "${cxx[@]}" -std=c++17 -O1 tests/grader/gradetool.cpp -o "$tool.tmp$$" > "$work/tool.log" 2>&1 && mv "$tool.tmp$$" "$tool" &
  pids+=($!)
fi
if [ ! -x "$ref_bin" ]; then
  { build "$ref_bin.tmp$$" "$root/$reference" && mv "$ref_bin.tmp$$" "$ref_bin"; } > "$work/ref.log" 2>&1 &
  pids+=($!)
fi
build "$work/student" "$submission" "-I$work/src" "-I$(dirname "$src")" > "$work/compile.log" 2>&1
compiled=$?
for pid in "${pids[@]}"; do wait "$pid"; done
[ -x "$tool" ] || { echo "check-exercise: cannot build tests/grader/gradetool.cpp:" >&2; head -n 20 "$work/tool.log" >&2; exit 2; }
[ -x "$ref_bin" ] || { echo "check-exercise: the reference $reference does not build with $tests_file (a grader bug):" >&2; head -n 20 "$work/ref.log" >&2; exit 2; }

# run_limited OUT ERR PROGRAM ARGS...: the program's status in $status, its
# stdout and stderr each cut at the output limit, in the run folder, no input.
run_limited() {
  local out=$1 err=$2 status_file=$work/status
  shift 2
  # The program's stdout goes to fd 3 and its stderr to fd 4, each through its
  # own head; the shell's own notes ("Aborted", ...) go nowhere.
  { { (cd "$work/run" && exec timeout -k 2 "$time_limit" "$@" < /dev/null >&3 2>&4)
      echo $? > "$status_file"; } 2> /dev/null 4>&1 | head -c "$limit" > "$err"; } 3>&1 |
    head -c $((limit + 1)) > "$out"
  status=$(cat "$status_file")
}

last_line() { tr -d '\r' < "$1" | tr '\t' ' ' | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c 1-300; }

# What a status means, in words; nothing for a plain exit 0 or 1.
trouble() {  # trouble OUT ERR STATUS
  local out=$1 err=$2 status=$3 said
  said=$(last_line "$err")
  if [ "$(wc -c < "$out")" -gt "$limit" ] || [ "$(wc -c < "$err")" -ge "$limit" ]; then
    echo "printed more than $limit bytes, so it was stopped (printing in a loop?)"
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "still running after $time_limit seconds, so it was stopped (an endless loop, or waiting for something?)"
  elif [ "$status" -eq 134 ]; then echo "aborted (SIGABRT${said:+: $said})"
  elif [ "$status" -eq 139 ]; then echo "crashed: segmentation fault (SIGSEGV; reading or writing outside a matrix or vector?)"
  elif [ "$status" -eq 136 ]; then echo "crashed: arithmetic error (SIGFPE; a whole-number division by zero?)"
  elif [ "$status" -eq 3 ]; then echo "${said:-threw an exception}"
  elif [ "$status" -gt 128 ]; then echo "killed by signal $((status - 128))"
  elif [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then echo "exited with status $status${said:+ ($said)}"
  fi
}

list=$work/list
"$ref_bin" --list > "$list" 2> /dev/null || { echo "check-exercise: $ref_bin --list failed (a grader bug)" >&2; exit 2; }
rows=$work/rows
: > "$rows"
total=0 max_total=0 n=0
while IFS=$'\t' read -r name points kind tolerance hint; do
  n=$((n + 1))
  max_total=$((max_total + points))
  score=0
  r=$work/out/$n
  if [ "$compiled" -ne 0 ]; then
    message="did not compile (the compiler's message is above)"
  elif [ "$kind" = output ]; then
    run_limited "$r.ref" "$r.ref.err" "$ref_bin" --lesson
    [ "$status" -eq 0 ] || { echo "check-exercise: the reference's lesson exited with status $status (a grader bug)" >&2; exit 2; }
    run_limited "$r.out" "$r.err" "$work/student" --lesson
    message=$(trouble "$r.out" "$r.err" "$status")
    if [ -z "$message" ] && [ "$status" -ne 0 ]; then message="the program exited with status $status; the reference exits with 0"; fi
    if [ -z "$message" ]; then message=$("$tool" words "$r.ref" "$r.out") && score=$points && message="passed"; fi
  else
    run_limited "$r.out" "$r.err" "$work/student" --run "$name" --seed "$seed"
    message=$(trouble "$r.out" "$r.err" "$status")
    if [ -z "$message" ] && [ "$status" -eq 1 ]; then message=$(last_line "$r.err"); message=${message:-failed}; fi
    if [ -z "$message" ] && [ "$kind" = compare ]; then
      run_limited "$r.ref" "$r.ref.err" "$ref_bin" --run "$name" --seed "$seed"
      [ "$status" -eq 0 ] || { echo "check-exercise: the reference fails its own test $name (seed $seed): $(last_line "$r.ref.err") (a grader bug)" >&2; exit 2; }
      message=$("$tool" compare "$tolerance" "$r.ref" "$r.out") && score=$points && message="passed"
    elif [ -z "$message" ]; then score=$points message="passed"
    fi
  fi
  total=$((total + score))
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$score" "$points" "$message" "$hint" >> "$rows"
done < "$list"

# The report: the same text on the terminal and in results.json's "output".
report=$work/report
{
  echo "Exercise $id ($reference), graded: ${2}"
  echo "Seed $seed (SEED=$seed replays this run)"
  if [ "$compiled" -ne 0 ]; then
    echo
    echo "It did not compile:"
    sed -e "s|$submission|$2|g" -e "s|$work/src/|(handout) |g" "$work/compile.log" | head -n 30 | sed 's/^/    /'
  fi
  echo
  printf '  %-30s %-7s %s\n' test points message
  while IFS=$'\t' read -r name score points message _; do
    printf '  %-30s %-7s %s\n' "$name" "$score/$points" "$message"
  done < "$rows"
  echo
  echo "$total/$max_total points"
  if [ "$total" -lt "$max_total" ]; then
    echo
    echo "Hints:"
    while IFS=$'\t' read -r name score points _ hint; do
      [ "$score" -lt "$points" ] && [ -n "$hint" ] && echo "  $name: $hint"
    done < "$rows"
  fi
} > "$report"
cat "$report"

if [ -n "$results" ]; then
  awk -F'\t' -v OFS='\t' '{ m = $4; if ($2 < $3 && $5 != "") m = m "\\nHint: " $5; print $1, $2, $3, m }' "$rows" > "$work/json_rows"
  "$tool" json "$results" "$work/json_rows" "$report" || exit 2
fi
[ "$total" -eq "$max_total" ]
