# Exercise: all
# Attack: gradescope/exec_outside
# Rule: no gain
# Why: in Gradescope's layout, as root, the program finds the reference's build anywhere it can read (the autograder folder, /tmp, its parents) and execs it with its own arguments.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$1" "$2" "$3" @AUTOGRADER@ <<'CODE'
__attribute__((constructor)) static void attack_start() { attack::become(attack::find_reference()); }
CODE
