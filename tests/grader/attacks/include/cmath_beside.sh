# Exercise: all
# Attack: include/cmath_beside
# Rule: rejected
# Why: a file named cmath beside the submission is read by every #include <cmath> when the submission's folder is on the include path; here it holds the whole answer.
set -u
name=$(basename "$2")
{
  echo "// Everything is in the cmath beside this file."
  echo "#include <cmath>"
  echo "int main(int argc, char** argv) { return attack_call(attack_main, argc, argv); }"
} > "$3/$name"
{
  echo "#pragma GCC system_header  // no -Wpedantic note on include_next"
  echo "#include_next <cmath>"
  echo "#ifndef ATTACK_CMATH_ONCE"
  echo "#define ATTACK_CMATH_ONCE"
  sed -e 's|#include "\.\./\([a-z_]*\.hpp\)"|#include "\1"|' -e 's/^int main(/static int attack_main(/' "$SOLVED"
  echo "inline int attack_call(int (*f)(), int, char**) { return f(); }"
  echo "inline int attack_call(int (*f)(int, char**), int argc, char** argv) { return f(argc, argv); }"
  echo "#endif"
} > "$3/cmath"
