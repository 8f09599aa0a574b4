# Exercise: all
# Attack: lookup/golden_main
# Rule: under 30%
# Why: the untouched starter with a main that prints the golden text (the lesson's output, which the handout's students can see in the book): no attention computed at all.
set -u
golden=$ROOT/tests/golden/${2%.cpp}.txt
[ -f "$golden" ] || { echo "no golden file $golden (make golden writes it)"; exit 1; }
. "$ROOT/tests/grader/lib.sh"
golden_printer "$STARTER" "$golden" > "$3/$(basename "$2")"
