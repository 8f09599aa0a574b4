// tests/grader/grader.hpp: what an exercise's tests file (tests/grader/<id>.cpp) includes. grade.sh
// builds that file twice (README, "How a grading runs"): with -DGRADER_CHECKER as the checker
// (checker.hpp), and as the student's driver, which runs the functions the checker asks for and
// decides nothing. The part of the tests file above "#ifdef GRADER_CHECKER" is built into both.
#pragma once

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "matrix.hpp"

namespace grader {

struct Garbage {};  // thrown by a Reader that finds the bytes malformed

constexpr int REQUESTS = 3, ANSWERS = 4;          // the driver's fds: requests in, answers out
constexpr uint32_t LARGEST_MESSAGE = 256u << 20;  // bytes in one request or answer

// A function's type as the protocol sees it: by value and by const & read alike,
// a non-const & is written back; an int where the reference has long long differs.
template <class Q>
constexpr bool written_back = std::is_lvalue_reference_v<Q> && !std::is_const_v<std::remove_reference_t<Q>>;
template <class Q>
using WireParam = std::conditional_t<written_back<Q>, std::decay_t<Q>&, std::decay_t<Q>>;
template <class R, class... P>
inline const char* wire_type() {
    return typeid(std::decay_t<R>(*)(WireParam<P>...)).name();
}

// Made before a call's arguments are read into it (a tests file specialises it for a type with no default constructor).
template <class T>
struct Blank {
    static T make() { return T(); }
};
template <>
struct Blank<Rng> {
    static Rng make() { return Rng(0); }
};

struct Writer {
    std::string bytes;
    void raw(const void* p, size_t n) { bytes.append(static_cast<const char*>(p), n); }
};
struct Reader {
    const std::string& bytes;
    size_t at = 0;
    explicit Reader(const std::string& b) : bytes(b) {}
    void raw(void* p, size_t n) {
        if (n > bytes.size() - at) throw Garbage{};
        std::memcpy(p, bytes.data() + at, n);
        at += n;
    }
    size_t left() const { return bytes.size() - at; }
};

// A struct's fields, one visitor call each: GRADER_FIELDS(Attention, Q, K, V, weights, out) names
// every field in order (a structured binding, so that the compiler says when one is missing).
template <class F, class... T>
void each_field(F& f, T&... fields) {
    (f(fields), ...);
}
#define GRADER_FIELDS(Type, ...)               \
    template <class F>                         \
    void grader_fields(Type& x_, F&& f_) {     \
        auto& [__VA_ARGS__] = x_;              \
        ::grader::each_field(f_, __VA_ARGS__); \
    }

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// A string or vector travels as its length and its entries; a struct as its fields.
template <class T>
void put(Writer& w, const T& x) {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) w.raw(&x, sizeof x);
    else if constexpr (is_vector<T>::value || std::is_same_v<T, std::string>) {
        uint64_t n = x.size();
        w.raw(&n, sizeof n);
        for (const auto& e : x) put(w, typename T::value_type(e));
    } else {
        grader_fields(const_cast<T&>(x), [&](auto& field) { put(w, field); });
    }
}

template <class T>
void get(Reader& r, T& x) {
    if constexpr (std::is_same_v<T, bool>) {
        unsigned char b;
        r.raw(&b, 1);
        if (b > 1) throw Garbage{};
        x = b;
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) r.raw(&x, sizeof x);
    else if constexpr (is_vector<T>::value || std::is_same_v<T, std::string>) {
        uint64_t n;
        r.raw(&n, sizeof n);
        if (n > r.left()) throw Garbage{};  // every entry takes a byte at least
        x.clear();
        for (uint64_t i = 0; i < n; i++) {
            typename T::value_type e = Blank<typename T::value_type>::make();
            get(r, e);
            x.push_back(e);
        }
    } else {
        grader_fields(x, [&](auto& field) { get(r, field); });
    }
}

template <>
inline void get<Matrix>(Reader& r, Matrix& m) {  // its entries must be rows x cols of them
    get(r, m.rows), get(r, m.cols), get(r, m.data);
    if (m.rows < 0 || m.cols < 0 || m.data.size() != size_t(m.rows) * size_t(m.cols)) throw Garbage{};
}

// The lesson's main, whichever of the two signatures it has.
using Lesson = int (*)(int, char**);
template <class F>
int call_lesson(F f, int argc, char** argv) {
    if constexpr (std::is_invocable_v<F, int, char**>) return f(argc, argv);
    else {
        (void)argc;
        (void)argv;
        return f();
    }
}

// A function the student writes, as the tests (in namespace tests) name it: in the checker a call in the
// student's process (call.hpp), in the driver an entry in the table of functions it serves (below).
template <class F, F f>
struct StudentFunction;

}  // namespace grader

// The tests file's STUDENT_FUNCTIONS, each as a StudentFunction of the same name in namespace tests.
#define GRADER_STUDENT_FUNCTION(f) static const ::grader::StudentFunction<decltype(&::f), &::f> f{#f};
#define GRADER_STUDENT_FUNCTIONS(LIST) \
    namespace tests {                  \
    LIST(GRADER_STUDENT_FUNCTION)      \
    }

GRADER_FIELDS(Matrix, rows, cols, data)
GRADER_FIELDS(Rng, state)
#define GRADER_LESSON(f) [](int argc, char** argv) { return ::grader::call_lesson(&f, argc, argv); }

#ifdef GRADER_CHECKER
#define main lesson_main
#include REFERENCE_SOURCE
#undef main
#include "checker.hpp"
#else
#define main lesson_main
#include STUDENT_SOURCE
#undef main

namespace grader {

// One function the checker may call: reads its arguments, calls it, writes
// the return value and every argument passed by non-const reference.
template <class F, F f>
struct Call;
template <class R, class... P, R (*f)(P...)>
struct Call<R (*)(P...), f> {
    static_assert(((!std::is_pointer_v<std::decay_t<P>>)&&...),
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
inline std::vector<Entry>& served() {  // the functions the driver serves, in the order STUDENT_FUNCTIONS names them
    static std::vector<Entry> table;
    return table;
}
template <class R, class... P, R (*f)(P...)>
struct StudentFunction<R (*)(P...), f> {
    explicit StudentFunction(const char* name) {
        served().push_back({name, Call<R (*)(P...), f>::type(), &Call<R (*)(P...), f>::call});
    }
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

}  // namespace grader

// The driver's main: runs the lesson, or serves the functions the tests file's STUDENT_FUNCTIONS names.
int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--lesson") == 0) {
        argv[1] = argv[0];  // the lesson sees its own name and its own arguments
        try {
            return ::grader::call_lesson(&lesson_main, argc - 1, argv + 1);
        } catch (const std::exception& e) {
            std::fflush(stdout);
            std::fprintf(stderr, "threw an exception: %s\n", e.what());
            return 3;
        }
    }
    if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return ::grader::serve(::grader::served());
    std::fputs("usage: driver --serve | --lesson [ARGS...] (the grader runs this; make check-exercise)\n", stderr);
    return 2;
}
#endif
