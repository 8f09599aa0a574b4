#!/usr/bin/env bash
# What tiny_2_No_Peeking prints, read back: in the triangle, row t has exactly
# t + 1 marks (nothing above the diagonal), and for the first four rows, every
# seventh and the last two, --row lists the letters 0..t and their printed
# percentages add up to 100% (within the rounding of one decimal each). The
# same for a head picked with --block/--head. (Each row is one run of the
# lesson; the same code prints every row, so a sample of them is enough.)
# And the small case, attend_forward on the first four letters alone, against
# tests/reference/tiny_reference.py's weights (double precision, from the
# checkpoint file): each within one unit of its last digit, 0 after the diagonal.
set -u
build=$1
cd "$(dirname "$0")/../.." || exit 1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
program=$build/chapter_tiny/tiny_2_No_Peeking
status=0
for head in "" "--block 1 --head 2"; do
  # The triangle: the lines from " 0 T" to the blank line after it.
  NO_COLOR=1 $RUN "$program" $head --row 0 | awk '
    { sub(/\r$/, "") }  # the CR before each newline on Windows (make cross)
    /^ +[0-9]+ . +[^ ]/ && !done { t = $1; n = length($3); rows++
      if ($1 != rows - 1) { print "row numbers out of order at " $1; bad = 1 }
      if (n != t + 1) { print "row " t " has " n " marks, not " t + 1; bad = 1 } }
    /^Row / { done = 1 }
    END { if (rows < 2) { print "no triangle found"; bad = 1 }; exit bad }' || status=1
  T=$(NO_COLOR=1 $RUN "$program" $head --row 0 | sed -n 's/.*(\([0-9]*\) characters).*/\1/p')
  out=$(NO_COLOR=1 $RUN "$program" $head | tr -d '\r')
  text=$(sed -n '1s/^[^"]*"\(.*\)" ([0-9]* characters)$/\1/p' <<< "$out")
  read -r b h <<< "$(sed -n 's/^block \([0-9]\) head \([0-9]\).*/\1 \2/p' <<< "$out")"
  paste -d '|' <(grep '^  letter ' <<< "$out") <(python3 tests/reference/tiny_reference.py mask "$text" "$b" "$h") |
    awk -F'|' -v head="block $b head $h" '
      { n++; split($1, got, " +"); split($2, want, " +")
        if (length(got) != length(want)) { print head ": " $1 ", the reference: " $2; bad = 1; next }
        for (i in want) {
          g = got[i]; w = want[i]
          if (w ~ /%$/ && g ~ /%$/) { if ((g + 0) - (w + 0) > 0.1001 || (w + 0) - (g + 0) > 0.1001) bad = 1 }
          else if (g != w) bad = 1
        }
        if (bad && !told) { print head ": " $1 ", the reference: " $2; told = 1 } }
      END { if (n != 4) { print head ": " n " rows of the small case, not 4"; bad = 1 }; exit bad }' || status=1
  rows=$(for ((row = 0; row < T; row++)); do
           if [ "$row" -lt 4 ] || [ $((row % 7)) -eq 0 ] || [ "$row" -ge $((T - 2)) ]; then echo "$row"; fi
         done)
  for row in $rows; do
    NO_COLOR=1 $RUN "$program" $head --row "$row" | awk -v row="$row" '
      { sub(/\r$/, "") }
      /^Row / { inside = 1; next }
      inside && /the row adds up to/ { reported = $NF; inside = 0; next }
      inside { s = $1; p = $3; sub(/%/, "", p); total += p; n++
               if (s != n - 1) { print "row " row ": letter " s " listed out of order"; bad = 1 } }
      END {
        if (n != row + 1) { print "row " row " lists " n " letters, not " row + 1; bad = 1 }
        if (total < 100 - 0.05 * n - 0.01 || total > 100 + 0.05 * n + 0.01) { print "row " row " adds up to " total "%"; bad = 1 }
        if (reported != "100.0%") { print "row " row " says it adds up to " reported; bad = 1 }
        exit bad }' || status=1
  done
done
exit $status
