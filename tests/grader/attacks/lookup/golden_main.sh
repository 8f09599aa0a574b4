# Exercise: all
# Attack: lookup/golden_main
# Rule: under 30%
# Why: the untouched starter with a main that prints the golden text (the lesson's output, which the handout's students can see in the book): no attention computed at all.
set -u
golden=$ROOT/tests/golden/${2%.cpp}.txt
[ -f "$golden" ] || { echo "pending: no golden file for $2"; exit 3; }
{
  sed 's/^int main(/[[maybe_unused]] static int unused_main(/' "$STARTER"
  echo '#include <cstdio>'
  echo 'int main() {'
  printf '    std::fputs(R"GOLDEN('
  cat "$golden"
  echo ')GOLDEN", stdout);'
  echo '    return 0;'
  echo '}'
} > "$3/$(basename "$2")"
