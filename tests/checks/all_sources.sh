#!/usr/bin/env bash
# What every program's source keeps to, so that lessons read alike: a usage
# text (USAGE) sits just before main, after the lesson's own code, and nowhere
# else; and no code line is over 120 characters. Run by make test; it reads the
# sources, not the build.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 2
checked=0 failed=0
for f in chapter*/*.cpp chapter*/*/*.cpp; do
  grep -q 'USAGE =' "$f" || continue
  checked=$((checked + 1))
  # After the line that ends USAGE's text (its first line ending in ";"), the
  # next line that is not blank must begin main.
  problem=$(awk '
    /USAGE =/ { inside = 1; start = FNR }
    inside && /;[ \t]*$/ { inside = 0; after = 1; next }
    after && NF > 0 { if ($0 !~ /^int main\(/) print "USAGE (line " start ") is followed by line " FNR ", not by main"; after = 0; found = 1 }
    END { if (!found) print "USAGE has no main after it" }
  ' "$f")
  if [ -n "$problem" ]; then
    echo "FAIL $f: $problem"
    failed=$((failed + 1))
  fi
done
echo "usage texts: $checked programs, $failed not just before main"

# No code line over 120 characters (.clang-format's limit; shell wrapped by hand). Left out: the
# submissions the grader is tested with, kept as handed in (class), or whose one-line fields and
# sed patterns of the reference's lines are read a line at a time (attacks, solutions); and the
# inside of a raw string, which is a program's output (a page's script).
long=$(find chapter* common tests/grader -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.sh' -o -name '*.py' \
  -o -name '*.js' -o -name '*.mjs' \) ! -path 'tests/grader/class/*' \
  ! -path 'tests/grader/solutions/*' ! \( -path 'tests/grader/attacks/*' ! -path 'tests/grader/attacks/lib/*' \) \
  -exec awk '
    FNR == 1 { raw = 0 }
    raw { if (/\)"/) raw = 0; next }
    { print FILENAME ":" FNR ": " $0 }
    /R"\(/ && !/R"\(.*\)"/ { raw = 1 }' {} + | LC_ALL=C.UTF-8 grep -E '^[^:]+:[0-9]+: .{121}' | cut -d' ' -f1)
[ -z "$long" ] || { echo "FAIL lines over 120 characters:"; echo "$long"; }
echo "code lines over 120 characters: $(printf '%s' "$long" | grep -c .)"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ] && [ -z "$long" ]
