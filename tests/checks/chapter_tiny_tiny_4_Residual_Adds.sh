#!/usr/bin/env bash
# tests/checks/chapter_tiny_tiny_4_Residual_Adds.sh: every figure of tiny_4_Residual_Adds
# against tests/reference/tiny_reference.py's, which reads the checkpoint from its file
# format alone and computes in double precision, letter by letter (the program reads
# whole windows in float with tiny_model.hpp's forward):
# - each letter's three shares and size in both blocks, the blocks' means, the
#   losses with both adds and without each: the same words, and each number within
#   one unit of its last printed digit (float and double can round a last digit
#   differently; a wrong sum or a dropped add moves the figures by far more);
# - the three written lines, letter for letter;
# - the validation slice the lesson writes out is tinyshakespeare.txt's from 90%,
#   where that file is here (the reference says which it used);
# - with both adds, the line is the start of tiny_generate's golden text.
# About 2.5 s of CPU, nearly all the reference's Python.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$RUN "$build/chapter_tiny/tiny_4_Residual_Adds" < /dev/null > "$work/crlf" ||
  { echo "FAILED: tiny_4_Residual_Adds exited with status $?"; exit 1; }
tr -d '\r' < "$work/crlf" > "$work/program"  # Wine's programs end lines in CRLF
python3 tests/reference/tiny_reference.py residual > "$work/reference" || { echo "FAILED: the reference"; exit 1; }
python3 - "$work/program" "$work/reference" tests/golden/chapter_tiny/tiny_generate.txt << 'PY'
import re, sys
program = open(sys.argv[1]).read().splitlines()
reference = open(sys.argv[2]).read().splitlines()
number = re.compile(r"^-?[0-9]+\.([0-9]+)")  # a printed figure, then its %, "," or ";"
problems, compared, furthest = [], 0, 0.0
MODELS = ("both adds", "without the attention add", "without the network add")
LINE = 2 + 26 + 1 + 9 + 3  # where a model's written line starts ("  %-26s %9.4f   %s")


def label(line):  # the words before the first figure: which row a line is ("0 T", "block 1: came in")
    words = []
    for word in line.split():
        if number.match(word):
            break
        words.append(word)
    return " ".join(words)


rows = {label(line): line for line in program}
for want in reference:
    if want.startswith("validation text: "):
        print(want)
        if "the same: NO" in want:
            problems.append(want)
        continue
    got = rows.get(label(want), "")
    a, b = got.split(), want.split()
    if len(a) != len(b):
        problems.append("not printed as the reference has it: " + want)
        continue
    for x, y in zip(a, b):
        mx, my = number.match(x), number.match(y)
        if mx and my and x[mx.end():] == y[my.end():]:
            unit = 10.0 ** -len(my.group(1))
            gap = abs(float(mx.group(0)) - float(my.group(0)))
            furthest = max(furthest, gap / unit)
            compared += 1
            if gap > unit * 1.0001:
                problems.append("%s: %s, the reference %s" % (label(want), x, y))
        elif x != y:
            problems.append("%s: '%s', the reference '%s'" % (label(want), x, y))
    if label(want) in MODELS and got[LINE:] != want[LINE:]:
        problems.append("%s writes '%s', the reference '%s'" % (label(want), got[LINE:], want[LINE:]))
both = rows.get("both adds", "")[LINE:]
golden = open(sys.argv[3]).read().replace("\n", "|")
if not both or not golden.startswith(both):
    problems.append("with both adds the line is not tiny_generate's: " + both)
for p in problems[:20]:
    print("FAILED: " + p)
print("%d lines against the reference: %d figures, the furthest %.2f units of its last digit away%s" % (
    len(reference) - 1, compared, furthest, "" if problems else "; with both adds the line is tiny_generate's"))
sys.exit(1 if problems else 0)
PY
