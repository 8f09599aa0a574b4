# Exercise: all
# Attack: takeover/background_rewrite
# Rule: no gain
# Runs: alone
# Lingers: 4
# Why: a double-forked setsid child, with every descriptor closed, that outlives the run and keeps rewriting results.json, rows and reports to full marks for a few seconds after the grader has finished.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$@" <<'CODE'
__attribute__((constructor)) static void attack_start() {
    if (std::getenv("ATTACK_CHILD")) return;
    setenv("ATTACK_CHILD", "1", 1);
    pid_t child = fork();
    if (child != 0) {
        if (child > 0) waitpid(child, nullptr, 0);
        return;
    }
    setsid();
    if (fork() != 0) _exit(0);
    for (int fd = 0; fd < 1024; fd++) close(fd);
    if (open("/dev/null", O_RDWR) == 0 && (dup(0) < 0 || dup(0) < 0)) _exit(0);
    for (int round = 0; round < 8; round++) {  // about 4 seconds
        usleep(500000);
        attack::rewrite_all();
    }
    _exit(0);
}
CODE
