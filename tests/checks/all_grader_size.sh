#!/usr/bin/env bash
# The grader stays small enough to read: everything that runs in a grading or checks the grader (its
# scripts and C++ in tests/grader/ but not an exercise's tests file <id>.cpp or the solutions, the attacks'
# lib/, tests/run_autograder and tests/checks/grader_*.sh) is at most 6,535 lines: 6,012 once checker.hpp
# was split by job and make format had laid the C++ out (5,864 before it), 156 more for the copy
# detector's inlining of a student's helpers (similarity_inline.hpp) and its page on a phone, 168 for
# reading single-use temporaries and one-expression helpers as their values, and for the attack suite's
# pool and pairing, and 180 for the answers' bits kept by the checker and compared by the detector
# (similarity_answers.hpp), with its check, and 11 for keeping the detector out of the kept gradings' key
# (lib.sh's grader_version), with its check. No one of those files is over 350 lines. Run by make test; it
# reads the sources, not the build.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 2
most=6535 longest=350
files=$( (ls tests/grader/*.sh tests/grader/*.hpp tests/grader/*.cpp | grep -vE '/[^/]+\.[0-9]+\.cpp$'
  ls tests/grader/attacks/lib/* tests/run_autograder tests/checks/grader_*.sh) )
total=$(cat $files | wc -l | tr -d ' ')
long=$(wc -l $files | awk -v n="$longest" '$2 != "total" && $1 > n { printf " %s (%d)", $2, $1 }')
if [ "$total" -le "$most" ] && [ -z "$long" ]; then
  echo "ok: the grader is $total lines, at most $most, in $(echo $files | wc -w | tr -d ' ') files of at most $longest"
elif [ -n "$long" ]; then
  echo "FAILED: grader files over $longest lines:$long"
  exit 1
else
  echo "FAILED: the grader is $total lines, more than $most; the largest files:"
  wc -l $files | sort -rn | sed -n '2,6p'
  exit 1
fi
