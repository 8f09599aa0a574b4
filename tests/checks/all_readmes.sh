#!/usr/bin/env bash
# The READMEs a learner and a teacher read:
# - each chapter README's points table (a table headed "| Exercise | Test |
#   Points |", one row a test, the exercise's id in the first cell or left
#   blank for the one above) lists the grader's tests and points, in its order
#   (tests/grader/lib.sh's exercise_points);
# - README.md's layout section (the "## How the project is laid out" heading
#   down to the next "## ") names every header under common/ and chapter*/;
# - no README holds a per-run measurement: a date, a machine's load, "this
#   round", "the last run", a median or rate measured once (those belong in
#   tests/bench/RESULTS.md, which make bench rewrites);
# - README.md is at most 200 lines, each chapter's README at most 300 besides its points table
#   (checked in 1., a row a test: a new exercise's rows do not push the chapter's text past its cap);
# - no line of the Markdown in chapter*/, common/ and tests/grader/ (not the students' class/) is over 120
#   characters (issue 35), as the code's lines are not.
# Run with the build folder as $1 (not used: it reads only the sources).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/grader/lib.sh
failures=0
failed() { echo "FAILED: $1"; failures=$((failures + 1)); }
ok() { echo "ok: $1"; }

# 1. The points tables.
points_table() {  # points_table README: "id<TAB>test<TAB>points" for every row of its points tables
  awk -F'|' '
    function trim(s) { gsub(/`/, "", s); sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    /^\| *Exercise *\| *Test *\| *Points *\|/ { inside = 1; id = ""; next }
    inside && /^\| *-/ { next }
    inside && /^\|/ { if (trim($2) != "") id = trim($2); print id "\t" trim($3) "\t" trim($4); next }
    { inside = 0 }' "$1"
}
while IFS=$'\t' read -r id file; do
  readme=${file%%/*}/README.md
  if [ ! -f "$readme" ]; then failed "exercise $id ($file): no $readme"; continue; fi
  want=$(exercise_points "$id")
  have=$(points_table "$readme" | awk -F'\t' -v id="$id" '$1 == id { print $2 "\t" $3 }')
  if [ -z "$have" ]; then failed "$readme has no row of exercise $id's points table (want: $(echo $want))"
  elif [ "$have" != "$want" ]; then
    failed "$readme's points for $id differ from tests/grader/$id.cpp:"
    diff <(echo "$want") <(echo "$have") | sed -n 's/^< /      grader: /p; s/^> /      README: /p'
  else ok "$readme: exercise $id's $(echo "$want" | wc -l | tr -d ' ') tests and points are the grader's"; fi
done < <(exercise_table)
ids=" $(exercise_ids) "
for readme in chapter*/README.md; do
  for id in $(points_table "$readme" | cut -f1 | sort -u); do
    case "$ids" in *" $id "*) ;; *) failed "$readme has a points table for $id, which is no exercise" ;; esac
  done
done

# 2. README.md's layout section names every header.
layout=$(awk '/^## / { inside = ($0 ~ /laid out/) } inside' README.md)
if [ -z "$layout" ]; then failed "README.md has no section '## How the project is laid out'"
else
  missing=
  for header in $(find common chapter* -name '*.hpp' | sort); do
    printf '%s\n' "$layout" | grep -qF "$(basename "$header")" || missing="$missing $header"
  done
  if [ -n "$missing" ]; then failed "README.md's layout section does not name:$missing"
  else ok "README.md's layout section names all $(find common chapter* -name '*.hpp' | wc -l | tr -d ' ') headers"; fi
fi

# 3. No per-run measurement. Each pattern is an extended regex, matched
# without case; a hit names the README, the line and what it looks like.
measurement_patterns='this round|in the last run|last run here|runs here|load average|with a load of
(19|20)[0-9]{2}-[01][0-9]
[0-9]{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) (19|20)[0-9]{2}
(on|since|until) (the )?[0-9]{1,2}(st|nd|rd|th)? (January|February|March|April|May|June|July|August|September|October|November|December)
median[ ,]+[0-9][0-9.]*[ ,]*(s|ms|µs|ns|min|seconds|minutes|over)([^a-z]|$)|median of [0-9]+ runs
[0-9][0-9.,]* (tokens|letters|updates|steps)(/s| (per|a) second)
[0-9][0-9.]* GFLOP/s
[0-9]+ min [0-9]+ s'
readmes=$(git ls-files '*README.md' 2> /dev/null || find . -name README.md -not -path './build*')
hits=
for readme in $readmes; do
  while IFS= read -r pattern; do
    hit=$(grep -niE -- "$pattern" "$readme" | head -n 3)
    [ -n "$hit" ] && hits="$hits$(printf '%s\n' "$hit" | sed "s|^|      $readme:|" | cut -c 1-160)
"
  done <<< "$measurement_patterns"
done
if [ -n "$hits" ]; then failed "per-run measurements in the READMEs (give an order of magnitude or point to tests/bench/RESULTS.md):"; printf '%s' "$hits" | sort -u
else ok "no README holds a per-run measurement ($(echo $readmes | wc -w | tr -d ' ') READMEs)"; fi

# 4. Line limits.
limit_check() {  # limit_check FILE MOST LINES WHAT
  if [ "$3" -le "$2" ]; then ok "$1: $3 lines$4 (at most $2)"; else failed "$1: $3 lines$4, more than $2"; fi
}
limit_check README.md 200 "$(wc -l < README.md | tr -d ' ')" ""
for readme in chapter*/README.md; do
  prose=$(awk '/^\| *Exercise *\| *Test *\| *Points *\|/ { table = 1 } table && /^\|/ { next } { table = 0; n++ }
    END { print n + 0 }' "$readme")
  limit_check "$readme" 300 "$prose" " besides its points table"
done

# 5. Line length, in characters: UTF-8's continuation bytes are dropped before counting, in any awk.
markdown=$(find chapter* common tests/grader -name '*.md' -not -path 'tests/grader/class/*' | sort)
long=$(printf '%s\n' "$markdown" | xargs env LC_ALL=C awk '{ s = $0; gsub(/[\200-\277]/, "", s) }
  length(s) > 120 { print "      " FILENAME ":" FNR ": " length(s) " characters" }')
if [ -n "$long" ]; then failed "Markdown lines over 120 characters (wrap prose; shorten a table's cells):"; echo "$long"
else ok "no line over 120 characters in $(echo $markdown | wc -w | tr -d ' ') Markdown files"; fi

[ "$failures" -eq 0 ]
