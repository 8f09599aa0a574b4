# Exercise: all
# Attack: takeover/rewrite_rows
# Rule: no gain
# Runs: alone
# Why: at the start and at the exit of every run, every rows, report and results file it can find rewritten to full marks.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
static void attack_rewrite() { attack::rewrite_all(); }
__attribute__((constructor)) static void attack_start() {
    attack::rewrite_all();
    std::atexit(attack_rewrite);
}
CODE
