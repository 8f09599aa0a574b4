#!/usr/bin/env bash
# By hand, after the checkpoint changes (a few seconds of Python, so make test
# does not run it): every line tests/reference/tiny_demos_reference.py computes must be
# in the golden of tiny_2 or tiny_3 for the same options, either whole or (for
# a row's weights, which the program follows with a bar) as the start of a line.
#   bash tests/manual/tiny_demos_against_reference.sh
set -u
cd "$(dirname "$0")/../.."
golden=tests/golden/chapter_tiny
status=0
compare() {  # reference options, which lines (all, or only3: tiny_3's), then the goldens
  local options=$1 which=$2; shift 2
  local missing
  missing=$(eval "python3 tests/reference/tiny_demos_reference.py $options" |
    if [ "$which" = only3 ]; then sed '/^chosen head: /,$d'; else cat; fi |
    grep -v -e '^chosen head: ' -e '^positions ' -e '^rows up to ' |
    while IFS= read -r line; do
      cat "$@" | grep -qF -- "$line" || echo "$line"
    done)
  if [ -n "$missing" ]; then
    echo "FAIL  reference $options: not in $*:"; echo "$missing" | head -10 | sed 's/^/      /'; status=1
  else
    echo "PASS  reference $options: every line is in $*"
  fi
}
# The sentences the programs print (the counts the reference prints as words):
summary() {
  eval "python3 tests/reference/tiny_demos_reference.py $1" | grep -e '^chosen head: ' -e '^positions ' -e '^rows up to ' | sed 's/^/      /'
}
compare "" all $golden/tiny_2_No_Peeking.txt $golden/tiny_3_Several_Readers.txt
summary ""
compare "--block 1 --head 3 --row 20 --at 20" all $golden/tiny_2_No_Peeking@head.txt $golden/tiny_3_Several_Readers@at.txt
compare "--text \"The bag didn't fit in the car because it was too big\"" only3 $golden/tiny_3_Several_Readers@big.txt
exit $status
