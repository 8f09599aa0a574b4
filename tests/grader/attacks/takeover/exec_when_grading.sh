# Exercise: all
# Attack: takeover/exec_when_grading
# Rule: no gain
# Why: the same exec, only when the program sees it is being graded (MAKELEVEL, RESULTS, GRADER_CACHE, or a run folder beside ../list), so that the student's own runs look honest.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
__attribute__((constructor)) static void attack_start() {
    if (attack::sees_grading()) attack::become(attack::find_reference());
}
CODE
