// tests/grader/call.hpp: the checker's side of a call to a student's function: the request
// written, the answer read and checked (grader.hpp has the wire format and the driver's side).
#pragma once

#include <memory>
#include <cxxabi.h>  // GCC's and Clang's demangler: the grader builds with either, on POSIX

#include "process.hpp"

namespace grader {

// The student's driver for one test, started at its first call.
struct Session {
    std::unique_ptr<Process> process;
    uint64_t replies = 0;  // a hash of every answer's bytes, in order: what a property test's calls gave (run.hpp)
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
            if (answer.size() >= 4 && size == 0) throw Failed{formatted("the answer to %s was malformed", name)};
            process->stop();
            if (process->err_tail.empty() && WIFEXITED(process->status) && WEXITSTATUS(process->status) == 0)
                throw Failed{formatted("your program ended during a call to %s without answering", name)};
            throw Failed{process->how_it_ended() + " (calling " + name + ")"};
        }
        if (answer.size() != 4 + size_t(size)) throw Failed{formatted("the answer to %s was malformed", name)};
        if (answer[4] == 1)
            throw Failed{"threw an exception: " + judge::theirs(judge::one_line(answer.substr(5), 300))};
        if (answer[4] == 2) throw Failed{signature_differs(name, answer.substr(5))};
        if (answer[4] != 0) throw Failed{formatted("the answer to %s was malformed", name)};
        replies = (replies ^ judge::fnv1a(answer)) * 0x100000001b3ull;
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
        return formatted(
            "%s's signature differs from the statement's: yours is %s, the statement's is %s (by value "
            "and by const & count as one)",
            name, readable(judge::one_line(theirs, 300), name).c_str(), readable(expected_type, name).c_str());
    }
};
inline Session* student = nullptr;  // while the student's functions are being called

// A function the student writes, as the tests call it: the reference's own while the
// reference's numbers are made, else a call in the student's process.
template <class R, class... P, R (*f)(P...)>
struct StudentFunction<R (*)(P...), f> {
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
            throw Failed{formatted("the answer to %s was malformed", name)};
        }
    }
};

}  // namespace grader
