# Exercise: all
# Attack: takeover/replace_gradetool
# Rule: no gain
# Runs: alone
# Why: every gradetool it can reach replaced by a script that exits 0, so that every comparison passes.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
__attribute__((constructor)) static void attack_start() {
    for (const std::string& f : attack::files_around())
        if (attack::base_name(f) == "gradetool") attack::write_over(f, "#!/bin/sh\nexit 0\n", true);
}
CODE
