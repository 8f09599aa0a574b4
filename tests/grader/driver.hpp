// tests/grader/driver.hpp: the student's side of the grader, which decides
// nothing: it runs the functions the checker asks for and sends back what they
// returned (grader.hpp says how it is built).
//
//   driver --serve          requests on fd 3, answers on fd 4 (wire.hpp)
//   driver --lesson [ARGS]  the student's main, for the printed-output test
#pragma once

#include <cstdio>
#include <exception>
#include <tuple>
#include <utility>

namespace grader {

// One function the checker may call: reads its arguments, calls it, writes
// the return value and every argument passed by non-const reference.
template <class F, F f>
struct Call;
template <class R, class... P, R (*f)(P...)>
struct Call<R (*)(P...), f> {
    static_assert(((!std::is_pointer_v<std::decay_t<P>>) && ...),
                  "a function with pointer arguments needs an adapter in its tests file (see tiny.1.cpp)");

    template <size_t... I>
    static void run(Reader& in, Writer& out, std::index_sequence<I...>) {
        std::tuple<std::decay_t<P>...> args{Blank<std::decay_t<P>>::make()...};
        (get(in, std::get<I>(args)), ...);
        if (in.left() != 0) throw Garbage{};
        if constexpr (std::is_void_v<R>) f(std::get<I>(args)...);
        else {
            std::decay_t<R> result = f(std::get<I>(args)...);
            put(out, result);
        }
        (put_back<P>(out, std::get<I>(args)), ...);
    }
    template <class Q, class T>
    static void put_back(Writer& out, T& x) {
        if constexpr (written_back<Q>) put(out, x);
    }
    static void call(Reader& in, Writer& out) { run(in, out, std::index_sequence_for<P...>{}); }
    static const char* type() { return wire_type<R, P...>(); }
};

struct Entry {
    const char* name;
    const char* type;  // wire_type of the student's function: the checker sends the reference's
    void (*call)(Reader&, Writer&);
};

inline int serve(const std::vector<Entry>& table) {
    FILE* requests = ::fdopen(REQUESTS, "rb");
    FILE* answers = ::fdopen(ANSWERS, "wb");
    for (;;) {
        uint32_t n;
        if (!requests || !answers || std::fread(&n, sizeof n, 1, requests) != 1) return 0;  // the checker is done
        if (n > LARGEST_MESSAGE) return 2;
        std::string request(n, '\0');
        if (n > 0 && std::fread(&request[0], n, 1, requests) != 1) return 2;
        Reader in(request);
        std::string name, type;
        Writer out;
        char status = 0;
        try {
            get(in, name);
            get(in, type);
            const Entry* e = nullptr;
            for (const Entry& candidate : table)
                if (name == candidate.name) e = &candidate;
            if (!e) return 2;
            if (type != e->type) status = 2, out.bytes = e->type;  // its arguments would not read
            else e->call(in, out);
        } catch (const Garbage&) {
            return 2;
        } catch (const std::exception& x) {
            status = 1, out.bytes = x.what();
        } catch (...) {
            status = 1, out.bytes = "something that is not a std::exception";
        }
        std::fflush(stdout);
        out.bytes.insert(out.bytes.begin(), status);
        const uint32_t size = uint32_t(out.bytes.size());
        if (std::fwrite(&size, sizeof size, 1, answers) != 1 ||
            std::fwrite(out.bytes.data(), 1, size, answers) != size || std::fflush(answers) != 0)
            return 2;
    }
}

inline int driver_main(int argc, char** argv, Lesson lesson, const std::vector<Entry>& table) {
    if (argc >= 2 && std::strcmp(argv[1], "--lesson") == 0) {
        argv[1] = argv[0];  // the lesson sees its own name and its own arguments
        try {
            return lesson(argc - 1, argv + 1);
        } catch (const std::exception& e) {
            std::fflush(stdout);
            std::fprintf(stderr, "threw an exception: %s\n", e.what());
            return 3;
        }
    }
    if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return serve(table);
    std::fputs("usage: driver --serve | --lesson [ARGS...] (the grader runs this; make check-exercise)\n", stderr);
    return 2;
}

}  // namespace grader

#define GRADER_ENTRY(f) ::grader::Entry{#f, ::grader::Call<decltype(&f), &f>::type(), &::grader::Call<decltype(&f), &f>::call},
// The driver's main: serves the functions LIST names (the tests file's STUDENT_FUNCTIONS).
#define GRADER_STUDENT_FUNCTIONS(LIST) \
    int main(int argc, char** argv) {  \
        return ::grader::driver_main(argc, argv, GRADER_LESSON(lesson_main), {LIST(GRADER_ENTRY)}); \
    }
