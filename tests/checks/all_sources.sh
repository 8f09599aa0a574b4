#!/usr/bin/env bash
# What every program's source keeps to, so that lessons read alike: a usage
# text (USAGE) sits just before main, after the lesson's own code, and nowhere
# else. Run by make test; it reads the sources, not the build.
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
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
