#!/usr/bin/env bash
# The exercise grader (tests/grade_exercise.sh, make check-exercise) passes the
# reference solution, fails a wrong one with a diff, fails a program that exits
# non-zero, reports a file that does not compile, and refuses bad EX and SRC.
set -u
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
grade() { bash tests/grade_exercise.sh "$@" > "$work/log" 2>&1; }

# expect WHAT STATUS TEXT: the last grade exited with STATUS and printed TEXT.
expect() {
  if [ "$status" -eq "$2" ] && grep -qF -- "$3" "$work/log"; then echo "ok: $1"
  else
    echo "FAILED: $1: want status $2 and '$3', got status $status:"
    sed 's/^/    /' "$work/log"
    failures=$((failures + 1))
  fi
}

reference=chapter20/exercises/ex4_Parameter_Count.cpp
grade 4 "$reference"; status=$?
expect "the reference solution passes" 0 "PASS  exercise 4"

# A classic slip: counting W_Q and W_V but forgetting W_K.
sed 's/(2 \* d_k + d_v) \* d_model;/(d_k + d_v) * d_model;/' "$reference" > "$work/wrong.cpp"
cmp -s "$reference" "$work/wrong.cpp" && { echo "FAILED: the wrong solution is not wrong"; exit 1; }
grade 4 "$work/wrong.cpp"; status=$?
expect "a wrong solution fails" 1 "FAIL  exercise 4"
expect "a wrong solution shows the expected line" 1 "-  (2 * d_k + d_v) * d_model = 98,304 per head"
expect "a wrong solution shows its own line" 1 "+  (2 * d_k + d_v) * d_model = 65,536 per head"

printf 'int main() { return 3; }\n' > "$work/exits.cpp"
grade 4 "$work/exits.cpp"; status=$?
expect "a program that exits non-zero fails" 1 "exited with status 3"

printf 'int main() { return undeclared_name; }\n' > "$work/broken.cpp"
grade 4 "$work/broken.cpp"; status=$?
expect "a file that does not compile is reported" 1 "did not compile: $work/broken.cpp"
expect "the compiler's message is shown" 1 "undeclared_name"

grade "" "$reference"; status=$?
expect "a missing EX is a usage error" 2 "EX is missing"
grade 4; status=$?
expect "a missing SRC is a usage error" 2 "SRC is missing"
grade 9 "$reference"; status=$?
expect "an exercise that does not exist is a usage error" 2 "there is no exercise 9"
grade three "$reference"; status=$?
expect "a word for EX is a usage error" 2 "EX must be an exercise number"
grade 4 "$work/no_such_file.cpp"; status=$?
expect "a missing file is a usage error" 2 "cannot read SRC"

[ "$failures" -eq 0 ]
