// tests/grader/process.hpp: the student's process as the checker runs it (README, "How a grading runs"):
// its pipes, its limits, and poll() over them until it answers, ends or runs out of time.
#pragma once

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge.hpp"

namespace grader {

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
        said = judge::one_line(said, 300);
        std::string with = said.empty() ? "" : ": " + judge::theirs(said);
        switch (code) {
            case 128 + SIGSEGV:
                return "crashed: segmentation fault (SIGSEGV; reading or writing outside a matrix or vector?)";
            case 128 + SIGBUS: return "crashed: bus error (SIGBUS)";
            case 128 + SIGABRT: return "aborted (SIGABRT" + with + ")";
            case 128 + SIGFPE: return "crashed: arithmetic error (SIGFPE; a whole-number division by zero?)";
            case 128 + SIGXCPU:
                return formatted("used more than its %g seconds of CPU time, so it was stopped", limits.seconds);
            case 128 + SIGXFSZ: return "wrote a file larger than the limit, so it was stopped";
            case 128 + SIGKILL: return "was killed (SIGKILL: out of memory, or over a limit)";
            case 3: return said.empty() ? "threw an exception" : judge::theirs(said);
            default:
                if (code > 128) return formatted("killed by signal %d", code - 128);
                return formatted("exited with status %d%s", code, with.c_str());
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
                return formatted("printed more than %zu bytes, so it was stopped (printing in a loop?)", limits.output);
            if (err_bytes > limits.errors)
                return formatted("printed more than %zu bytes on stderr, so it was stopped", limits.errors);
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
                return formatted(
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

}  // namespace grader
