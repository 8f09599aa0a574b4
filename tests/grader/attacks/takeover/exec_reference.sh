# Exercise: all
# Attack: takeover/exec_reference
# Rule: no gain
# Why: a static constructor that execs the reference's build (found beside, above, in GRADER_CACHE, TMPDIR, /autograder or the repository) with the same arguments answers every test as the reference.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
__attribute__((constructor)) static void attack_start() { attack::become(attack::find_reference()); }
CODE
