#!/usr/bin/env bash
# make book: lesson by lesson, what the book says about a program's output and
# what the program prints, side by side.
#
#   same     the book's text is in our output, character for character
#   ours     our run differs from the book's on purpose (our own random start
#            or training run): the line shows our figure beside the book's
#   MISSING  the text is not in our output (make test fails on it too)
#
# It runs the built programs (with each golden's arguments, as make test does)
# and reads the claims from tests/fixtures/book_claims.tsv: golden name, the text our
# output contains, the book's section and what it says, and for "ours" rows
# the reason in a fourth column.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
claims=tests/fixtures/book_claims.tsv
width=${BOOK_WIDTH:-58}   # the book's column
out=$build/book
mkdir -p "$out"

# One run per golden name: program[@case], with tests/golden/NAME.args.
output_of() {
  local name=$1 file=$out/${1//\//_}.txt args=()
  if [ ! -f "$file" ]; then
    [ -x "$build/${name%@*}" ] || { echo "make book: $build/${name%@*} is not built (run make first)" >&2; exit 2; }
    [ -f "tests/golden/$name.args" ] && eval "args=($(cat "tests/golden/$name.args"))"
    "$build/${name%@*}" ${args[@]+"${args[@]}"} < /dev/null > "$file" 2> /dev/null
  fi
  echo "$file"
}

same=0 ours=0 missing=0
claim() {  # claim NAME TEXT SECTION WHY: one row, the book's words wrapped beside our line
  local name=$1 text=$2 section=$3 why=$4 file line mark first=1 part
  file=$(output_of "$name")
  line=$(grep -F -m 1 -- "$text" "$file" | sed 's/^ *//')
  if [ -z "$line" ]; then mark=MISSING; missing=$((missing + 1)); line="(not printed: $text)"
  elif [ -n "$why" ]; then mark=ours; ours=$((ours + 1))
  else mark=same; same=$((same + 1)); fi
  while IFS= read -r part; do
    if [ "$first" = 1 ]; then printf '   %-7s %-*s  %s\n' "$mark" "$width" "$part" "$line"; first=0
    else printf '   %-7s %s\n' "" "$part"; fi
  done < <(printf '%s\n' "$section" | fold -s -w "$width" | sed 's/ *$//')
  [ -n "$why" ] && printf '   %-7s %-*s  (%s)\n' "" "$width" "" "$why"
  return 0
}
# In book order (tests/lessons.sh), each lesson's claims in the file's order.
while IFS=$'\t' read -r lesson section; do
  rows=$out/rows
  awk -F'\t' -v l="$lesson" '$1 == l || index($1, l "@") == 1' "$claims" > "$rows"
  [ -s "$rows" ] || continue
  printf '\n== %s (section %s)\n' "$lesson" "$section"
  printf '   %-7s %-*s  %s\n' "" "$width" "the book (section: what it says)" "our program prints"
  while IFS=$'\t' read -r name text said why; do claim "$name" "$text" "$said" "$why"; done < "$rows"
done < <(bash tests/lessons.sh)
printf '\n%d the same as the book, %d ours on purpose, %d missing\n' "$same" "$ours" "$missing"
[ "$missing" -eq 0 ]
