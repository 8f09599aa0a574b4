#!/usr/bin/env bash
# make test: runs every program against its golden output, checks the book's
# quoted numbers, runs the property and gradient checks, and ends with
# "N passed, M failed". Exits non-zero if anything failed.
#
#   tests/golden/<folder>/<program>.txt          expected stdout of build/<folder>/<program>
#   tests/golden/<folder>/<program>@<case>.txt   a second run of the same program ...
#   tests/golden/<folder>/<name>.args            ... with these arguments (shell words)
#   tests/book_claims.tsv                        golden name <TAB> text its output must contain <TAB> section
#   tests/*.cpp                                  check programs: exit 0 means pass
#   tests/check_*.sh                             check scripts, given the build folder: exit 0 means pass,
#                                                exit 77 skipped (what it needs is missing; its last line says what)
#
# With --golden it rewrites the golden files instead of comparing.
#
# make cross sets RUN, a runner put before every program (and the check scripts
# put it before theirs): Wine or qemu-aarch64; and TEXT_CRLF=1 where the
# programs end lines with CR LF, as on Windows: goldens are then compared
# without the CR.
set -u
build=${1:-build}
mode=${2:-compare}
cd "$(dirname "$0")/.."
export NO_COLOR=1
export BUILD=$build
export RUN=${RUN:-}
outputs=$(mktemp -d)
trap 'rm -rf "$outputs"' EXIT

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "PASS  $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP  $1"; }

# Runs a golden's program with its arguments; stdout to $2, stderr to $2.err.
run_golden() {
  local name=$1 out=$2 program=${1%@*} args=()
  if [ -f "tests/golden/$name.args" ]; then eval "args=($(cat "tests/golden/$name.args"))"; fi
  $RUN "$build/$program" "${args[@]}" > "$out" 2> "$out.err" < /dev/null
  local status=$?
  [ -n "${TEXT_CRLF:-}" ] && sed -i 's/\r$//' "$out" "$out.err"
  return $status
}

# 1. Every lesson has a golden file.
while IFS=$'\t' read -r lesson _; do
  if [ -f "tests/golden/$lesson.txt" ]; then pass "$lesson has a golden file"
  else fail "$lesson has no golden file tests/golden/$lesson.txt"; fi
done < <(bash tests/lessons.sh)

# 2. Every golden: the program's stdout, byte for byte.
while IFS= read -r golden; do
  name=${golden#tests/golden/}; name=${name%.txt}
  out="$outputs/${name//\//__}"
  run_golden "$name" "$out"; status=$?
  if [ "$status" -ne 0 ]; then
    fail "$name exited with status $status ($(head -c 300 "$out.err"))"
  elif [ "$mode" = --golden ]; then
    cmp -s "$out" "$golden" || { cp "$out" "$golden"; echo "wrote $golden"; }
  elif diff -u "$golden" "$out" > "$out.diff"; then
    pass "$name matches its golden"
  else
    fail "$name differs from $golden:"; head -n 40 "$out.diff" | sed 's/^/      /'
  fi
done < <(find tests/golden -name '*.txt' | sort)
[ "$mode" = --golden ] && { echo "goldens written: check each diff with git diff tests/golden"; exit 0; }

# 3. Each number or phrase the book quotes appears in that program's output.
while IFS=$'\t' read -r name text section; do
  case "$name" in ''|'#'*) continue ;; esac
  out="$outputs/${name//\//__}"
  if [ -f "$out" ] && grep -qF -- "$text" "$out"; then pass "$name prints '$text' ($section)"
  else fail "$name should print '$text' (book section $section)"; fi
done < tests/book_claims.tsv

# 4. Check programs and check scripts.
for check in tests/*.cpp; do
  [ -f "$check" ] || continue
  bin="$build/${check%.cpp}"
  if $RUN "$bin" > "$outputs/check.log" 2>&1; then pass "$check"
  else fail "$check:"; tail -n 20 "$outputs/check.log" | sed 's/^/      /'; fi
done
for check in tests/check_*.sh; do
  [ -f "$check" ] || continue
  bash "$check" "$build" > "$outputs/check.log" 2>&1; status=$?
  if [ "$status" -eq 0 ]; then pass "$check"
  elif [ "$status" -eq 77 ]; then skip "$check: $(tail -n 1 "$outputs/check.log")"
  else fail "$check:"; tail -n 20 "$outputs/check.log" | sed 's/^/      /'; fi
done

echo
echo "$passed passed, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
