// tests/grader/run.hpp: the checker's main: its options, and each test run in a child process
// of its own whose row goes to the rows file (README, "How a grading runs").
#pragma once

#include "call.hpp"
#include "test.hpp"

namespace grader {

using judge::Row;
constexpr int GRADER_BUG = 3;  // a test process's exit status when the reference fails its own test

inline Row row_of(const Case& c, const std::string& message) {  // as it stands before the test runs
    return {c.name, 0, c.points, false, message, c.hint ? c.hint : ""};
}

// What a test's answers were, bit for bit, for similarity.cpp: lines "test, label, the student's hash, the
// reference's" in GRADER_ANSWERS (grade.sh keeps it). Copies give their original's bits, where independent
// right answers, adding up in another order, differ in the last ones.
inline std::string bits_of(const judge::Block& b) {
    std::string bytes = formatted("%d %d:", b.rows, b.cols);
    bytes.append(reinterpret_cast<const char*>(b.values.data()), b.values.size() * sizeof(double));
    return formatted("%016llx", (unsigned long long)judge::fnv1a(bytes));
}
inline void record_answers(const char* test, const std::vector<std::string>& lines) {
    const char* path = std::getenv("GRADER_ANSWERS");
    FILE* out = path && *path ? std::fopen(path, "a") : nullptr;
    if (!out) return;
    for (const std::string& line : lines) std::fprintf(out, "%s\t%s\n", test, line.c_str());
    std::fclose(out);
}
// A compare test's numbers, each block beside the reference's.
inline std::vector<std::string> compared(const std::vector<judge::Block>& mine, const std::vector<judge::Block>& want) {
    std::vector<std::string> lines;
    for (size_t k = 0; k < mine.size(); k++)
        lines.push_back(mine[k].label + "\t" + bits_of(mine[k]) + "\t" + (k < want.size() ? bits_of(want[k]) : "-"));
    return lines;
}

// The test's row; grader_bug set when the fault is the reference's, not the student's.
inline Row run_case(const Case& c, uint64_t seed, bool& grader_bug) {
    Row row = row_of(c, "");
    const uint64_t s = seed ^ judge::fnv1a(c.name);  // each test its own inputs
    try {
        if (c.kind == Kind::OUTPUT) {
            Process reference({limits.checker, "--lesson"}, false, true);  // the checker's own main is the reference's
            if (reference.pump("", nullptr, [] { return false; }) != "ended" || !WIFEXITED(reference.status) ||
                WEXITSTATUS(reference.status) != 0) {
                grader_bug = true;
                row.message = "the reference's lesson does not exit 0";
                return row;
            }
            Process p(driver("--lesson"), false, true);
            std::string trouble = p.pump("", nullptr, [] { return false; });
            if (trouble != "ended") throw Failed{trouble};
            if (!WIFEXITED(p.status) || WEXITSTATUS(p.status) != 0) {
                std::string how = p.how_it_ended();
                if (WIFEXITED(p.status) && WEXITSTATUS(p.status) != 3 && WEXITSTATUS(p.status) < 128)
                    how += "; the reference exits with 0";
                throw Failed{"the program " + how};
            }
            std::string differs = judge::words(reference.out_text, p.out_text);
            if (!differs.empty()) throw Failed{differs};
        } else {
            std::vector<judge::Block> want;
            if (c.kind == Kind::COMPARE) {
                Test reference(s);
                student = nullptr;
                try {
                    c.body(reference);
                } catch (const Failed& f) {
                    grader_bug = true;
                    row.message = "the reference fails its own test " + std::string(c.name) + ": " + f.message;
                    return row;
                }
                want = reference.blocks;
                row.hidden = reference.rng.state != s;
            }
            Session session;
            student = &session;
            Test t(s);
            c.body(t);
            student = nullptr;
            if (c.kind == Kind::PROPERTY) {
                row.hidden = t.rng.state != s;
                record_answers(c.name, {formatted("calls\t%016llx\t-", (unsigned long long)session.replies)});
            }
            if (c.kind == Kind::COMPARE) {
                record_answers(c.name, compared(t.blocks, want));
                std::string differs = judge::compare(c.tolerance, want, t.blocks);
                if (!differs.empty()) throw Failed{differs};
            }
        }
        row.score = c.points;
        row.message = "passed";
    } catch (const Failed& f) {
        row.message = f.message.empty() ? "failed" : f.message;
    } catch (const std::exception& e) {
        row.message = std::string("the grader could not use your answers (") + e.what() + ")";
    }
    student = nullptr;
    return row;
}

inline void write_row(FILE* rows, const Row& r) {
    std::fputs(judge::row_line(r).c_str(), rows);
    std::fflush(rows);
}

// Runs one test in a child process, so that answers the checker cannot use
// (a crash, an endless loop) lose that test and no other.
inline Row run_isolated(const Case& c, uint64_t seed, bool& grader_bug) {
    int p[2];
    if (::pipe(p) != 0) {
        grader_bug = true;
        return row_of(c, "the grader could not make a pipe");
    }
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(p[0]);
        ::alarm(unsigned(3 * limits.seconds + 60));  // a backstop for answers that hang the test itself
        bool bug = false;
        const std::string line = judge::row_line(run_case(c, seed, bug));
        FILE* result = ::fdopen(p[1], "wb");
        if (result) {
            std::fwrite(line.data(), 1, line.size(), result);
            std::fclose(result);
        }
        std::fflush(stdout);
        _exit(bug ? GRADER_BUG : 0);
    }
    ::close(p[1]);
    std::string text;
    char buffer[4096];
    FILE* result = ::fdopen(p[0], "rb");
    for (size_t k; result && (k = std::fread(buffer, 1, sizeof buffer, result)) > 0;) text.append(buffer, k);
    if (result) std::fclose(result);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::vector<Row> rows;
    if (!judge::read_rows(text, rows) || rows.size() != 1 || rows[0].name != c.name || rows[0].points != c.points)
        return row_of(c, "the grader could not use your answers (its test process stopped)");
    grader_bug = WIFEXITED(status) && WEXITSTATUS(status) == GRADER_BUG;
    return rows[0];
}

inline int run(int argc, char** argv, Lesson lesson, const std::vector<Case>& cases) {
    std::signal(SIGPIPE, SIG_IGN);
    limits.checker = argv[0];
    const char* usage =
        "usage: checker --lesson [ARGS] | --fail ROWS MESSAGE |\n"
        "       --grade SECONDS OUTPUT_LIMIT ERROR_LIMIT [--after CMD] -- SANDBOX... DRIVER\n"
        "       (with GRADER_SEED and GRADER_ROWS in the environment)\n";
    std::string command = argc > 1 ? argv[1] : "";
    if (command == "--lesson") {
        argv[1] = argv[0];
        return lesson(argc - 1, argv + 1);
    }
    if (command == "--fail" && argc == 4) {
        FILE* rows = std::fopen(argv[2], "w");
        if (!rows) return std::fprintf(stderr, "checker: cannot write %s\n", argv[2]), 2;
        for (const Case& c : cases) write_row(rows, row_of(c, argv[3]));
        return std::fclose(rows) == 0 ? 0 : 2;
    }
    // The seed and the rows' path come in the environment, which no other uid can read.
    const char* seed_text = std::getenv("GRADER_SEED");
    const char* rows_path = std::getenv("GRADER_ROWS");
    if (command == "--grade" && argc >= 7 && seed_text && rows_path) {
        const uint64_t seed = std::strtoull(seed_text, nullptr, 10);
        limits.seconds = std::atof(argv[2]);
        limits.output = size_t(std::atoll(argv[3]));
        limits.errors = size_t(std::atoll(argv[4]));
        int k = 5;
        std::string after;
        if (std::strcmp(argv[k], "--after") == 0 && k + 1 < argc) after = argv[k + 1], k += 2;
        if (k >= argc || std::strcmp(argv[k], "--") != 0) return std::fputs(usage, stderr), 2;
        for (k++; k < argc; k++) limits.command.push_back(argv[k]);
        if (limits.command.empty()) return std::fputs(usage, stderr), 2;
        FILE* rows = std::fopen(rows_path, "w");
        if (!rows) return std::fprintf(stderr, "checker: cannot write %s\n", rows_path), 2;
        for (const Case& c : cases) {
            bool grader_bug = false;
            const Row r = run_isolated(c, seed, grader_bug);
            if (!after.empty()) {
                // The sandbox's clean-up between tests: what it reports is not the test's.
                [[maybe_unused]] const int status = std::system(after.c_str());
            }
            if (grader_bug) {
                std::fprintf(stderr, "check-exercise: %s (seed %llu; a grader bug)\n", r.message.c_str(),
                             (unsigned long long)seed);
                return 2;
            }
            write_row(rows, r);
        }
        return std::fclose(rows) == 0 ? 0 : 2;
    }
    std::fputs(usage, stderr);
    return 2;
}

}  // namespace grader
