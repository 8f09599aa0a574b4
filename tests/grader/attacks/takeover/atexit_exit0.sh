# Exercise: all
# Attack: takeover/atexit_exit0
# Rule: no gain
# Why: an atexit handler that calls _exit(0): a failed property test exits 0, which the grader took as a pass.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
static void attack_exit0() { _exit(0); }
__attribute__((constructor)) static void attack_start() { std::atexit(attack_exit0); }
CODE
