# Exercise: all
# Attack: include/cmath_beside
# Rule: rejected
# Why: a file named cmath beside the submission is read by every #include <cmath> when the submission's folder is on the include path; here it holds the whole answer.
set -u
name=$(basename "$2")
{
  echo "// Everything is in the cmath beside this file."
  echo "#include <cmath>"
} > "$3/$name"
{
  echo "#include_next <cmath>"
  echo "#ifndef ATTACK_CMATH_ONCE"
  echo "#define ATTACK_CMATH_ONCE"
  sed 's|#include "\.\./\([a-z_]*\.hpp\)"|#include "\1"|' "$SOLVED"
  echo "#endif"
} > "$3/cmath"
