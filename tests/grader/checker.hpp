// tests/grader/checker.hpp: the grader's side, the only process that awards a point
// (tests/grader/README.md, "How a grading runs"). Its rows: name, score, points, hidden, message, hint.
#pragma once

#include <cerrno>
#include <chrono>
#include <csignal>
#include <memory>
#include <cxxabi.h>  // GCC's and Clang's demangler: the grader builds with either, on POSIX
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge.hpp"

namespace grader {

enum class Kind { COMPARE, PROPERTY, OUTPUT };

// Thrown at a test's first failed expectation, or at a call the student's process did not answer.
struct Failed {
    std::string message;
};

// ---------------------------------------------------------------------------
// The student's process.
struct Limits {
    double seconds = 10;                // waiting for the student's process, per test
    size_t output = 1000000;            // its stdout, per test
    size_t errors = 64u * 1000 * 1000;  // its stderr, per test
    std::vector<std::string> command;   // the sandbox's command, ending in the driver
    std::string checker;                // this program, whose --lesson is the reference's
};
inline Limits limits;
inline std::vector<std::string> driver(const char* mode) {  // the driver's command line, run as MODE
    std::vector<std::string> command = limits.command;
    command.push_back(mode);
    return command;
}

inline void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// A program in a process group of its own: stdin /dev/null, stdout and stderr on
// pipes, and with `serve` requests on its fd 3 and answers on its fd 4.
struct Process {
    pid_t pid = -1;
    int requests = -1, answers = -1, out = -1, err = -1;
    bool exited = false;
    int status = 0;
    size_t out_bytes = 0, err_bytes = 0;
    std::string out_text, err_tail;  // out_text: only when kept
    bool keep_out = false, serving = false;
    double waited = 0;  // seconds spent waiting for it

    Process(const std::vector<std::string>& command, bool serve, bool keep) : keep_out(keep), serving(serve) {
        int p_req[2] = {-1, -1}, p_ans[2] = {-1, -1}, p_out[2], p_err[2];
        if ((serve && (::pipe(p_req) != 0 || ::pipe(p_ans) != 0)) || ::pipe(p_out) != 0 || ::pipe(p_err) != 0)
            throw Failed{"the grader could not make a pipe (a grader bug)"};
        pid = ::fork();
        if (pid == 0) {
            ::setpgid(0, 0);
            int into[5] = {::open("/dev/null", O_RDONLY), p_out[1], p_err[1], serve ? p_req[0] : -1,
                           serve ? p_ans[1] : -1};
            for (int& fd : into)  // out of the way of 0 to 4 first, then into place
                if (fd >= 0) fd = ::fcntl(fd, F_DUPFD, 10);
            for (int k = 0; k < 5; k++)
                if (into[k] >= 0) ::dup2(into[k], k);
            for (int fd = serve ? 5 : 3; fd < 1024; fd++) ::close(fd);
            std::vector<char*> argv;
            for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
            argv.push_back(nullptr);
            ::execvp(argv[0], argv.data());
            _exit(127);
        }
        if (serve) ::close(p_req[0]), ::close(p_ans[1]), requests = p_req[1], answers = p_ans[0];
        ::close(p_out[1]), ::close(p_err[1]);
        out = p_out[0], err = p_err[0];
        for (int fd : {requests, answers, out, err})
            if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC), ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        if (pid < 0) throw Failed{"the grader could not start the student's program (a grader bug)"};
    }
    ~Process() { stop(); }

    // Kills its process group, after `grace` seconds for one ending by itself (a sandbox passing on a crash).
    void stop(double grace = 0) {
        for (int k = 0; pid > 0 && !exited && k < int(grace * 100); k++) {
            if (::waitpid(pid, &status, WNOHANG) == pid) exited = true;
            else ::usleep(10000);
        }
        if (pid > 0 && !exited) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            exited = true;
        }
        for (int* fd : {&requests, &answers, &out, &err}) close_fd(*fd);
    }

    std::string how_it_ended() {
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        std::string said = err_tail;
        while (!said.empty() && (said.back() == '\n' || said.back() == '\r' || said.back() == ' ')) said.pop_back();
        size_t cut = said.find_last_of('\n');
        if (cut != std::string::npos) said = said.substr(cut + 1);
        said = judge::shown(said, 300);
        std::string with = said.empty() ? "" : ": " + judge::theirs(said);
        switch (code) {
            case 128 + SIGSEGV:
                return "crashed: segmentation fault (SIGSEGV; reading or writing outside a matrix or vector?)";
            case 128 + SIGBUS: return "crashed: bus error (SIGBUS)";
            case 128 + SIGABRT: return "aborted (SIGABRT" + with + ")";
            case 128 + SIGFPE: return "crashed: arithmetic error (SIGFPE; a whole-number division by zero?)";
            case 128 + SIGXCPU:
                return judge::say("used more than its %g seconds of CPU time, so it was stopped", limits.seconds);
            case 128 + SIGXFSZ: return "wrote a file larger than the limit, so it was stopped";
            case 128 + SIGKILL: return "was killed (SIGKILL: out of memory, or over a limit)";
            case 3: return said.empty() ? "threw an exception" : judge::theirs(said);
            default:
                if (code > 128) return judge::say("killed by signal %d", code - 128);
                return judge::say("exited with status %d%s", code, with.c_str());
        }
    }

    // Sends `send`, drains stdout and stderr and hands fd 4's bytes to `answer` until `done`
    // says so or the time runs out. Returns "" or what went wrong.
    template <class Done>
    std::string pump(const std::string& send, std::string* answer, Done done) {
        size_t sent = 0;
        char buffer[65536];
        for (;;) {
            if (out_bytes > limits.output)
                return judge::say("printed more than %zu bytes, so it was stopped (printing in a loop?)",
                                  limits.output);
            if (err_bytes > limits.errors)
                return judge::say("printed more than %zu bytes on stderr, so it was stopped", limits.errors);
            if (sent == send.size() && done()) return "";
            pollfd fds[4];
            int n = 0, at_req = -1, at_ans = -1, at_out = -1, at_err = -1;
            if (requests >= 0 && sent < send.size()) at_req = n, fds[n++] = {requests, POLLOUT, 0};
            if (answers >= 0) at_ans = n, fds[n++] = {answers, POLLIN, 0};
            if (out >= 0) at_out = n, fds[n++] = {out, POLLIN, 0};
            if (err >= 0) at_err = n, fds[n++] = {err, POLLIN, 0};
            if (n == 0 || (serving && answers < 0)) {  // it has ended, or closed what it talks on
                stop(1.0);
                return done() ? "" : "ended";
            }
            const double left = limits.seconds - waited;
            if (left <= 0)
                return judge::say(
                    "still running after %g seconds, so it was stopped (an endless loop, or waiting for "
                    "something?)",
                    limits.seconds);
            auto start = std::chrono::steady_clock::now();
            int ready = ::poll(fds, nfds_t(n), int(left * 1000) + 1);
            waited += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (ready < 0 && errno != EINTR) return "poll failed (a grader bug)";
            if (ready <= 0) continue;
            if (at_req >= 0 && fds[at_req].revents) {
                ssize_t k = ::write(requests, send.data() + sent, send.size() - sent);
                if (k > 0) sent += size_t(k);
                else if (k < 0 && errno != EAGAIN && errno != EINTR) close_fd(requests), sent = send.size();
            }
            auto drain = [&](int& fd, int at, auto take) {
                if (at < 0 || !fds[at].revents) return;
                ssize_t k = ::read(fd, buffer, sizeof buffer);
                if (k > 0) take(size_t(k));
                else if (k == 0 || (errno != EAGAIN && errno != EINTR)) close_fd(fd);
            };
            drain(answers, at_ans, [&](size_t k) {
                if (answer) answer->append(buffer, k);
            });
            drain(out, at_out, [&](size_t k) {
                out_bytes += k;
                if (keep_out && out_text.size() <= limits.output) out_text.append(buffer, k);
            });
            drain(err, at_err, [&](size_t k) {
                err_bytes += k;
                err_tail.append(buffer, k);
                if (err_tail.size() > 4096) err_tail.erase(0, err_tail.size() - 2048);
            });
        }
    }
};

// The student's driver for one test, started at its first call.
struct Session {
    std::unique_ptr<Process> process;
    std::string call(const char* name, const std::string& request) {
        if (!process) process.reset(new Process(grader::driver("--serve"), true, false));
        std::string send(4, '\0'), answer;
        uint32_t n = uint32_t(request.size());
        std::memcpy(&send[0], &n, 4);
        send += request;
        uint32_t size = 0;
        auto complete = [&] {
            if (answer.size() < 4) return false;
            std::memcpy(&size, answer.data(), 4);
            if (size > LARGEST_MESSAGE) return true;  // more than any answer: malformed, below
            return size > 0 && answer.size() >= 4 + size_t(size);
        };
        std::string trouble = process->pump(send, &answer, complete);
        if (!trouble.empty() && trouble != "ended") {
            process->stop();
            throw Failed{trouble + " (calling " + name + ")"};
        }
        if (!complete()) {
            if (answer.size() >= 4 && size == 0) throw Failed{judge::say("the answer to %s was malformed", name)};
            process->stop();
            if (process->err_tail.empty() && WIFEXITED(process->status) && WEXITSTATUS(process->status) == 0)
                throw Failed{judge::say("your program ended during a call to %s without answering", name)};
            throw Failed{process->how_it_ended() + " (calling " + name + ")"};
        }
        if (answer.size() != 4 + size_t(size)) throw Failed{judge::say("the answer to %s was malformed", name)};
        if (answer[4] == 1) throw Failed{"threw an exception: " + judge::theirs(judge::shown(answer.substr(5), 300))};
        if (answer[4] == 2) throw Failed{signature_differs(name, answer.substr(5))};
        if (answer[4] != 0) throw Failed{judge::say("the answer to %s was malformed", name)};
        return answer.substr(5);
    }
    std::string expected_type;
    // wire_type's typeid name as a declaration: "long long attention_weights(int, long long, long long)".
    static std::string readable(const std::string& type, const char* name) {
        std::string s = type;
        int status = 0;
        char* text = abi::__cxa_demangle(type.c_str(), nullptr, nullptr, &status);
        if (status == 0 && text) s = text;
        std::free(text);
        size_t at = s.find(" (*)");
        if (at != std::string::npos) s.replace(at, 4, std::string(" ") + name);
        return s;
    }
    std::string signature_differs(const char* name, const std::string& theirs) const {
        return judge::say(
            "%s's signature differs from the statement's: yours is %s, the statement's is %s (by value "
            "and by const & count as one)",
            name, readable(theirs, name).c_str(), readable(expected_type, name).c_str());
    }
};
inline Session* student = nullptr;  // while the student's functions are being called

// A function the student writes, as the tests call it: the reference's own while the
// reference's numbers are made, else a call in the student's process.
template <class F, F f>
struct Proxy;
template <class R, class... P, R (*f)(P...)>
struct Proxy<R (*)(P...), f> {
    const char* name;
    template <class Q, class T>
    static void read_back(Reader& r, T& x) {
        if constexpr (written_back<Q>) get(r, x);
    }
    R operator()(P... args) const {
        Session* s = student;
        if (!s) return f(std::forward<P>(args)...);
        Writer w;
        const std::string type = wire_type<R, P...>();
        put(w, std::string(name));
        put(w, type);
        (put(w, args), ...);
        s->expected_type = type;
        const std::string answer = s->call(name, w.bytes);
        Reader r(answer);
        try {
            if constexpr (std::is_void_v<R>) {
                (read_back<P>(r, args), ...);
                if (r.left() != 0) throw Garbage{};
            } else {
                std::decay_t<R> result = Blank<std::decay_t<R>>::make();
                get(r, result);
                (read_back<P>(r, args), ...);
                if (r.left() != 0) throw Garbage{};
                return result;
            }
        } catch (const Garbage&) {
            throw Failed{judge::say("the answer to %s was malformed", name)};
        }
    }
};

// ---------------------------------------------------------------------------
// What a test body is given: the seeded inputs, and the ways to report.
class Test {
public:
    Rng rng;
    std::vector<judge::Block> blocks;  // what numbers() gave, in order
    explicit Test(uint64_t seed) : rng(seed) {}

    // ---- Hidden inputs, drawn from the run's seed (the same for both runs of a compare test).
    int size(int lo, int hi) { return lo + rng.below(hi - lo + 1); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * rng.uniform(); }
    Matrix matrix(int rows, int cols, float lo = -1.0f, float hi = 1.0f) {
        Matrix A(rows, cols);
        for (float& x : A.data) x = uniform(lo, hi);
        return A;
    }
    std::vector<float> vector(int n, float lo = -1.0f, float hi = 1.0f) {
        std::vector<float> v(static_cast<size_t>(n));
        for (float& x : v) x = uniform(lo, hi);
        return v;
    }

    // ---- Compare tests: numbers set against the reference's.
    void numbers(const std::string& label, const Matrix& A) {
        blocks.push_back({label, A.rows, A.cols, std::vector<double>(A.data.begin(), A.data.end())});
    }
    template <class T>
    void numbers(const std::string& label, const std::vector<T>& v) {  // float or int
        blocks.push_back({label, 1, int(v.size()), std::vector<double>(v.begin(), v.end())});
    }
    void number(const std::string& label, double x) { blocks.push_back({label, 1, 1, {x}}); }

    // ---- Property tests (and checks in compare tests): the first failed expectation ends the test.
    [[gnu::format(printf, 3, 4)]] void expect(bool ok, const char* format, ...) {
        if (ok) return;
        char text[1000];
        va_list args;
        va_start(args, format);
        std::vsnprintf(text, sizeof text, format, args);
        va_end(args);
        throw Failed{text};
    }
    void expect_shape(const Matrix& A, int rows, int cols, const char* what) {
        expect(A.rows == rows && A.cols == cols && A.data.size() == size_t(rows) * size_t(cols),
               "%s is %d x %d (%zu numbers); want %d x %d", what, A.rows, A.cols, A.data.size(), rows, cols);
    }
};

// CS231n's rel_error: |a - b| / max(|a| + |b|, floor).
inline double rel_error(double a, double b, double floor = 1e-8) {
    double scale = std::fabs(a) + std::fabs(b);
    return std::fabs(a - b) / (scale > floor ? scale : floor);
}
// A whole gradient against another: ||a - b|| / max(||a|| + ||b||, floor).
inline double rel_error_norm(const std::vector<double>& a, const std::vector<double>& b, double floor = 0.0) {
    double diff = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    if (a.size() != b.size()) return INFINITY;
    double scale = std::fmax(std::sqrt(na) + std::sqrt(nb), floor);
    return scale > 0 ? std::sqrt(diff) / scale : 0.0;
}

// ---------------------------------------------------------------------------
// The tests of one exercise.
using Body = void (*)(Test&);

struct Case {
    const char* name;
    int points;
    Kind kind;
    double tolerance;  // compare tests: largest rel_error accepted
    Body body;
    const char* hint;  // shown when the test fails: where to look, never the answer
};
inline Case compare(const char* name, int points, double tolerance, Body body, const char* hint) {
    return {name, points, Kind::COMPARE, tolerance, body, hint};
}
inline Case property(const char* name, int points, Body body, const char* hint) {
    return {name, points, Kind::PROPERTY, 0.0, body, hint};
}
inline Case printed_output(int points, const char* hint) {
    return {"printed_output", points, Kind::OUTPUT, 0.0, nullptr, hint};
}

struct Row {
    int score = 0;
    bool hidden = false;  // it drew inputs from the seed: the student sees pass or fail, not the message
    std::string message;
    bool grader_bug = false;
};

inline Row run_case(const Case& c, uint64_t seed) {
    Row row;
    const uint64_t s = seed ^ judge::fnv1a(c.name);  // each test its own inputs
    try {
        if (c.kind == Kind::OUTPUT) {
            Process reference({limits.checker, "--lesson"}, false, true);  // the checker's own main is the reference's
            if (reference.pump("", nullptr, [] { return false; }) != "ended" || !WIFEXITED(reference.status) ||
                WEXITSTATUS(reference.status) != 0) {
                row.grader_bug = true, row.message = "the reference's lesson does not exit 0";
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
                    row.grader_bug = true;
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
            if (c.kind == Kind::PROPERTY) row.hidden = t.rng.state != s;
            if (c.kind == Kind::COMPARE) {
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

inline void write_row(FILE* rows, const Case& c, const Row& r) {
    std::fprintf(rows, "%s\t%d\t%d\t%d\t%s\t%s\n", c.name, r.score, c.points, r.hidden ? 1 : 0,
                 judge::shown(r.message, std::string::npos).c_str(),
                 judge::shown(c.hint ? c.hint : "", std::string::npos).c_str());
    std::fflush(rows);
}

// Runs one test in a child process, so that answers the checker cannot use
// (a crash, an endless loop) lose that test and no other.
inline Row run_isolated(const Case& c, uint64_t seed) {
    int p[2];
    if (::pipe(p) != 0) return {0, false, "the grader could not make a pipe", true};
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(p[0]);
        ::alarm(unsigned(3 * limits.seconds + 60));  // a backstop for answers that hang the test itself
        const Row r = run_case(c, seed);
        const std::string line =
            judge::say("%d\t%d\t%d\t", r.score, r.hidden, r.grader_bug) + judge::shown(r.message, std::string::npos);
        FILE* result = ::fdopen(p[1], "wb");
        if (result) std::fwrite(line.data(), 1, line.size(), result), std::fclose(result);
        std::fflush(stdout);
        _exit(0);
    }
    ::close(p[1]);
    std::string text;
    char buffer[4096];
    FILE* result = ::fdopen(p[0], "rb");
    for (size_t k; result && (k = std::fread(buffer, 1, sizeof buffer, result)) > 0;) text.append(buffer, k);
    if (result) std::fclose(result);
    ::waitpid(pid, nullptr, 0);
    const std::vector<std::string> f = judge::fields(text);  // score, hidden, grader bug, message
    if (f.size() != 4) return {0, false, "the grader could not use your answers (its test process stopped)", false};
    Row r{std::atoi(f[0].c_str()), f[1] == "1", f[3], f[2] == "1"};
    if (r.score < 0 || r.score > c.points) r.score = 0;
    return r;
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
        for (const Case& c : cases) write_row(rows, c, {0, false, argv[3], false});
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
            Row r = run_isolated(c, seed);
            if (!after.empty() && std::system(after.c_str()) != 0) {
            }
            if (r.grader_bug) {
                std::fprintf(stderr, "check-exercise: %s (seed %llu; a grader bug)\n", r.message.c_str(),
                             (unsigned long long)seed);
                return 2;
            }
            write_row(rows, c, r);
        }
        return std::fclose(rows) == 0 ? 0 : 2;
    }
    std::fputs(usage, stderr);
    return 2;
}

}  // namespace grader

// The tests file's STUDENT_FUNCTIONS, as the tests (in namespace tests) see them.
#define GRADER_PROXY(f) inline const ::grader::Proxy<decltype(&::f), &::f> f{#f};
#define GRADER_STUDENT_FUNCTIONS(LIST) \
    namespace tests {                  \
    LIST(GRADER_PROXY)                 \
    }
