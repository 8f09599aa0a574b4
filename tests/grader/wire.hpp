// tests/grader/wire.hpp: how a call's inputs and outputs travel between the
// checker and the student's driver. A message is a 4-byte length, then its
// bytes: a request is the function's name, its type (wire_type) and its
// arguments; an answer is a status byte (0 returned, 1 threw: its text, 2 of
// another type: that type), the result and every argument passed by non-const
// reference. Numbers travel as their bytes (floats exactly, NaN and all).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include <unistd.h>

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
    return typeid(std::decay_t<R> (*)(WireParam<P>...)).name();
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
#define GRADER_FIELDS(Type, ...)                      \
    template <class F>                                \
    void grader_fields(Type& x_, F&& f_) {            \
        auto& [__VA_ARGS__] = x_;                     \
        ::grader::each_field(f_, __VA_ARGS__);        \
    }

template <class T> struct is_vector : std::false_type {};
template <class T, class A> struct is_vector<std::vector<T, A>> : std::true_type {};

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

}  // namespace grader

// Found by argument-dependent lookup, as a tests file's GRADER_FIELDS lines are.
template <class F>
void grader_fields(Matrix& m, F&& f) {
    f(m.rows);
    f(m.cols);
    f(m.data);
}
template <class F>
void grader_fields(Rng& g, F&& f) { f(g.state); }
