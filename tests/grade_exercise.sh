#!/usr/bin/env bash
# Grades a student's answer to one of chapter 20's exercises (section 20.9):
#
#   make check-exercise EX=3 SRC=path/to/student.cpp
#   bash tests/grade_exercise.sh 3 path/to/student.cpp
#
# Compiles the student's file with the project's flags (headers from common/
# and chapter20/exercises/), runs it from the repository root as make test
# runs a lesson, and compares its output with the exercise's golden file.
# Prints PASS (exit 0), or what went wrong and FAIL (exit 1). A usage mistake
# (no EX or SRC, no such exercise, no such file) is one line and exit 2.
set -u
ex=${1:-}
src=${2:-}
exercises=chapter20/exercises
usage="usage: make check-exercise EX=N SRC=path/to/student.cpp   (N is an exercise number; see chapter20/README.md)"

# SRC is relative to where the command was typed; everything else to the repository root.
[ -n "$src" ] && [ "${src#/}" = "$src" ] && src="$PWD/$src"
cd "$(dirname "$0")/.."

usage_error() { echo "check-exercise: $1" >&2; echo "$usage" >&2; exit 2; }
[ -n "$ex" ] || usage_error "EX is missing: which exercise is this?"
[ -n "$src" ] || usage_error "SRC is missing: which file should be graded?"

numbers=$(for f in "$exercises"/ex*_*.cpp; do n=${f#"$exercises"/ex}; echo "${n%%_*}"; done | sort -n | paste -sd ' ')
case "$ex" in *[!0-9]* | '') usage_error "EX must be an exercise number, got '$ex'; the exercises are: $numbers" ;; esac
reference=$(ls "$exercises"/ex"$ex"_*.cpp 2> /dev/null | head -n 1)
[ -n "$reference" ] || usage_error "there is no exercise $ex; the exercises are: $numbers"
[ -f "$src" ] && [ -r "$src" ] || usage_error "cannot read SRC '${2}': no such file"

name=$(basename "$reference" .cpp)
golden=tests/golden/$exercises/$name.txt
[ -f "$golden" ] || { echo "check-exercise: $golden is missing; run make test first" >&2; exit 2; }
args=()
if [ -f "tests/golden/$exercises/$name.args" ]; then eval "args=($(cat "tests/golden/$exercises/$name.args"))"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL  exercise $ex ($name): $1"; exit 1; }

# The same compiler and flags as make, unless make passed its own.
cxx=${CXX:-g++}
flags=${CXXFLAGS:--std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -Icommon}
echo "Grading $2 as exercise $ex ($name)"
# shellcheck disable=SC2086  # the flags are words
if ! $cxx $flags -I"$(dirname "$src")" -I"$exercises" "$src" -o "$work/program" ${LDFLAGS:-} -pthread > "$work/compile.log" 2>&1; then
  echo "did not compile: $2"
  head -n 30 "$work/compile.log" | sed 's/^/    /'
  fail "did not compile"
fi

# (make cross: RUN runs it under Wine or qemu; on Windows lines end in CR LF.)
NO_COLOR=1 timeout 20 ${RUN:-} "$work/program" "${args[@]}" > "$work/output.txt" 2> "$work/stderr.txt" < /dev/null
status=$?
[ -n "${TEXT_CRLF:-}" ] && sed -i 's/\r$//' "$work/output.txt"
[ "$status" -eq 124 ] && fail "still running after 20 seconds"
if [ -s "$work/stderr.txt" ]; then
  echo "it printed on stderr:"
  head -n 10 "$work/stderr.txt" | sed 's/^/    /'
fi

if diff -u --label "expected ($golden)" --label "your output" "$golden" "$work/output.txt" > "$work/diff.txt"; then
  [ "$status" -eq 0 ] || fail "the output matches, but the program exited with status $status"
  echo "PASS  exercise $ex ($name): the output matches $golden"
  exit 0
fi
head -n 60 "$work/diff.txt"
[ "$status" -eq 0 ] || fail "exited with status $status, and the output differs from $golden (- expected, + yours)"
fail "the output differs from $golden (lines with - are expected, + are yours)"
