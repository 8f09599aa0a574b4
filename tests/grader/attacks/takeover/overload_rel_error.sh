# Exercise: all
# Attack: takeover/overload_rel_error
# Rule: no gain
# Why: overloads of grader::rel_error_norm (non-const references) and grader::rel_error (floats) win overload resolution over the grader's own and say every gradient matches.
set -u
{
  cat "$STARTER"
  cat <<'CODE'

#include <vector>
namespace grader {
inline double rel_error_norm(std::vector<double>&, std::vector<double>&, double = 0.0) { return 0.0; }
inline double rel_error_norm(std::vector<double>&, const std::vector<double>&, double = 0.0) { return 0.0; }
inline double rel_error(float, float, double = 0.0) { return 0.0; }
inline double rel_error(float&, float&, double = 0.0) { return 0.0; }
}  // namespace grader
CODE
} > "$3/$(basename "$2")"
