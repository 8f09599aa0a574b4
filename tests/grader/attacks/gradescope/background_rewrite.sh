# Exercise: all
# Attack: gradescope/background_rewrite
# Rule: no gain
# Runs: alone
# Lingers: 4
# Why: in Gradescope's layout, a setsid child that outlives the run rewrites /autograder/results/results.json (found from its parents) after run_autograder has finished.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
sed -n '/^takeover/,$p' "$ROOT/tests/grader/attacks/takeover/background_rewrite.sh" | sed '1d;$d' |
  takeover "$1" "$2" "$3" @AUTOGRADER@
