#!/usr/bin/env bash
# The tiny demos' pictures: --svg writes one whole SVG, --html one page that
# needs no network (nothing fetched: no src=, no href=, no URL but the SVG
# namespace), with one group of reads per row or letter and only the chosen one
# shown (tiny_2, tiny_3) or the three groups its script redraws (tiny_1); and
# asking for pictures changes nothing else the program prints.
# (Whether the pages work in a browser: tests/checks/chapter_tiny_demos_browser.sh.)
set -u
build=$1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
status=0
problem() { echo "$1"; status=1; }

# program, its options, the number of reads groups the page must have, the one shown
while IFS='|' read -r program options groups shown; do
  bin=$build/chapter_tiny/$program
  NO_COLOR=1 $RUN "$bin" $options > "$W/plain.txt" || problem "$program $options: exit $?"
  html="--html $W/page.html"
  NO_COLOR=1 $RUN "$bin" $options --svg "$W/picture.svg" $html > "$W/with.txt" || problem "$program --svg: exit $?"
  grep -v '^wrote ' "$W/with.txt" | diff -q --strip-trailing-cr - <(cat "$W/plain.txt"; echo) > /dev/null ||
    problem "$program: --svg/--html changed what it prints"
  svg=$(cat "$W/picture.svg")
  [[ "$svg" == "<svg xmlns=\"http://www.w3.org/2000/svg\""* && "$svg" == *"</svg>" ]] ||
    problem "$program: picture.svg is not one whole SVG"
  [ "$(grep -c '<svg' "$W/picture.svg")" -eq 1 ] || problem "$program: picture.svg has more than one <svg>"
  page=$W/page.html
  [[ "$(head -c 15 "$page")" == "<!DOCTYPE html>" && "$(tail -n 1 "$page")" == "</html>" ]] || problem "$program: page.html is not a whole page"
  grep -qiE 'src=|href=|@import|url\(' "$page" && problem "$program: page.html refers to another file"
  [ "$(grep -oE 'https?://[^"]*' "$page" | sort -u)" = "http://www.w3.org/2000/svg" ] ||
    problem "$program: page.html names a URL other than the SVG namespace: $(grep -oE 'https?://[^"]*' "$page" | sort -u | head -3)"
  [ "$(grep -c '<script>' "$page")" -eq 1 ] || problem "$program: page.html should have one script"
  if [ -z "$groups" ]; then  # the soft lookup's page redraws three groups
    for id in query bars values; do grep -q "<g id=\"$id\">" "$page" || problem "$program: page.html has no group $id"; done
    continue
  fi
  [ "$(grep -c '<g id="reads' "$page")" -eq "$groups" ] || problem "$program: page.html should have $groups groups of reads"
  visible=$(grep -o '<g id="reads[0-9]*">' "$page")
  [ "$visible" = "<g id=\"reads$shown\">" ] || problem "$program: page.html shows '$visible', not reads$shown first"
done <<'EOF'
tiny_1_Soft_Lookup|--query 1,1||
tiny_2_No_Peeking||54|53
tiny_2_No_Peeking|--block 1 --head 3 --row 3 --text small.|6|3
tiny_3_Several_Readers|--at 20|54|20
EOF
exit $status
