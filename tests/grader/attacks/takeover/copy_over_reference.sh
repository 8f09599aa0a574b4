# Exercise: all
# Attack: takeover/copy_over_reference
# Rule: no gain
# Runs: alone
# Why: its own binary copied over every reference build it can reach, so that the reference's answers are its own.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
__attribute__((constructor)) static void attack_start() {
    const std::string me = attack::read_all(attack::self());
    for (const std::string& f : attack::files_around())
        if (attack::starts(attack::base_name(f), "reference") && attack::is_elf(f) && !attack::same_file(f, attack::self()))
            attack::write_over(f, me, true);
}
CODE
