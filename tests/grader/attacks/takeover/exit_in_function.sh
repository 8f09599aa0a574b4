# Exercise: all
# Attack: takeover/exit_in_function
# Rule: no gain
# Why: std::_Exit(0) as the first statement of every function the student writes ends each test with status 0 before anything can fail.
set -u
# After each "// TODO:" line of the starter (a solution region): inside a function
# body, the exit goes right after it; a region at file level holds whole
# functions, and the exit goes after each one's opening line.
awk '
  NR == 1 { print "#include <cstdlib>" }
  /^[ \t]+\/\/ TODO:/ { print; lead = $0; sub(/\/\/.*/, "", lead); print lead "std::_Exit(0);"; next }
  /^\/\/ TODO:/ { top = 1; print; next }
  top && /^(int main\(|\/\/ ----)/ { top = 0 }
  top && /^[A-Za-z_].*\)[ \t]*\{[ \t]*$/ { print; print "    std::_Exit(0);"; next }
  { print }
' "$STARTER" > "$3/$(basename "$2")"
