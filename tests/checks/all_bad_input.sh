#!/usr/bin/env bash
# Every case in tests/fixtures/bad_input.tsv: the program must print exactly one line on
# stderr that contains the expected words, exit with status 2, and leave no
# file behind. Run by make test, and under the sanitizers by make sanitize.
#
# Row: program <TAB> arguments (shell words; $W is a scratch folder holding the
# fixtures made below) <TAB> words the error line must contain.
set -u
build=${1:-build}
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
cd "$(dirname "$0")/../.."
W=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$W" "$out"' EXIT

# Fixtures: bad files made from good ones, so they follow the formats as they change.
: > "$W/empty"
mkdir -p "$W/dir"
if [ -x tests/fixtures/bad_input_fixtures.sh ] || [ -f tests/fixtures/bad_input_fixtures.sh ]; then
  bash tests/fixtures/bad_input_fixtures.sh "$build" "$W" || { echo "could not make the fixtures"; exit 1; }
fi

source tests/wanted.sh  # wanted: an exercise of a chapter EXERCISES leaves out is not built
# What is in the scratch folder, by name (bash's own globbing: no process per case).
shopt -s globstar dotglob nullglob
files() { printf -v "$1" '%s\n' "$W"/**; }
passed=0 failed=0
while IFS=$'\t' read -r program args expect; do
  case "$program" in ''|'#'*) continue ;; esac
  wanted "$program" || continue
  files before
  eval "set -- $args"
  expect=${expect//\$W/$W}
  $RUN "$build/$program" "$@" > "$out/stdout" 2> "$out/stderr" < /dev/null
  status=$?
  files after
  stderr=
  IFS= read -r -d '' stderr < "$out/stderr"
  newlines=${stderr//[!$'\n']/}
  problem=""
  [ "$status" -eq 2 ] || problem="exit status $status, not 2"
  [ -z "$problem" ] && [ "${#newlines}" -ne 1 ] && problem="${#newlines} lines on stderr, not 1"
  [ -z "$problem" ] && [[ $stderr != *"$expect"* ]] && problem="error does not say '$expect'"
  [ -z "$problem" ] && [ "$before" != "$after" ] && problem="files changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')"
  if [ -z "$problem" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $program $args: $problem"
    head -n 5 "$out/stderr" | sed 's/^/    stderr: /'
  fi
done < tests/fixtures/bad_input.tsv
echo "bad input: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
