# Exercise: all
# Attack: lookup/golden_main
# Rule: under 30%
# Why: the untouched starter with a main that prints the golden text (the lesson's output, which the handout's students can see in the book): no attention computed at all.
set -u
golden=$ROOT/tests/golden/${2%.cpp}.txt
[ -f "$golden" ] || { echo "no golden file $golden (make golden writes it)"; exit 1; }
{ sed 's/^int main(/[[maybe_unused]] static int unused_main(/' "$STARTER"
  printf '#include <cstdio>\nint main() {\n    std::fputs(R"GOLDEN('
  cat "$golden"
  printf ')GOLDEN", stdout);\n    return 0;\n}\n'; } > "$3/$(basename "$2")"
