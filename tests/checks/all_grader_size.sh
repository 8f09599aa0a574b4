#!/usr/bin/env bash
# The grader's machinery stays small enough to read: its scripts and C++
# (tests/grader/*.sh, *.hpp, *.cpp, but not an exercise's tests file <id>.cpp,
# the attacks or the solutions) are at most 4,322 lines: 3,200 before grading a
# class's export as downloaded, the platforms' sheets, the handout's version and
# the copy detector's second look were added. Run by make test; it reads the
# sources, not the build.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 2
most=4322
files=$(ls tests/grader/*.sh tests/grader/*.hpp tests/grader/*.cpp | grep -vE '/[^/]+\.[0-9]+\.cpp$')
total=$(cat $files | wc -l | tr -d ' ')
if [ "$total" -le "$most" ]; then
  echo "ok: the grader's machinery is $total lines, at most $most ($(echo $files | wc -w | tr -d ' ') files)"
else
  echo "FAILED: the grader's machinery is $total lines, more than $most; the largest files:"
  wc -l $files | sort -rn | sed -n '2,6p'
  exit 1
fi
