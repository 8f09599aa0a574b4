// common/lanes.hpp: eight floats worked on at once.
//
// A Lanes value holds eight independent floats; + - * / work lane by lane (a
// float on one side stands for eight copies of itself), so
// each lane's result is the same float a plain loop would get, in the same
// order. The fast loops use it to work on eight independent outputs at once
// (eight columns, or eight rows), never to split one sum across lanes.
//
// With g++ and clang++ it is the compiler's vector type: eight lanes become one
// AVX instruction in a build with -mavx2 (the Makefile's fast build of
// tiny_train) and two SSE2 instructions in a plain x86-64 build. Elsewhere it
// is a struct of eight floats with loops (-DLANES_PLAIN picks that one here too). Neither fuses a multiply and an add
// (-ffp-contract=off; -mavx2 without -mfma), so every build gives the same bits.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>

constexpr int LANES = 8;

#if defined(__GNUC__) && !defined(LANES_PLAIN)  // g++ and clang++ (-DLANES_PLAIN: the struct, for tests)
// A 32-byte vector argument is passed differently with and without AVX; these
// are inline functions inside one program, so the warning does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
// Unrolls the loop that follows, so a tile's sums stay in registers.
#define UNROLLED _Pragma("GCC unroll 16")
typedef float Lanes __attribute__((vector_size(LANES * sizeof(float))));
inline Lanes max_lanes(const Lanes& a, const Lanes& b) { return a > b ? a : b; }
inline Lanes same_lanes(float x) { return Lanes{x, x, x, x, x, x, x, x}; }  // x in every lane
#else  // any other C++17 compiler: the same arithmetic, one lane at a time
#define UNROLLED
struct Lanes {
    float v[LANES];
    float& operator[](int i) { return v[i]; }
    float operator[](int i) const { return v[i]; }
};
inline Lanes same_lanes(float x) { return Lanes{{x, x, x, x, x, x, x, x}}; }
#define LANES_OP(op)                                                            \
    inline Lanes operator op(Lanes a, Lanes b) {                                \
        for (int i = 0; i < LANES; i++) a.v[i] = a.v[i] op b.v[i];              \
        return a;                                                               \
    }                                                                           \
    inline Lanes operator op(Lanes a, float b) { return a op same_lanes(b); }   \
    inline Lanes operator op(float a, Lanes b) { return same_lanes(a) op b; }   \
    inline Lanes& operator op##=(Lanes& a, Lanes b) { return a = a op b; }
LANES_OP(+)
LANES_OP(-)
LANES_OP(*)
LANES_OP(/)
#undef LANES_OP
inline Lanes max_lanes(Lanes a, Lanes b) {
    for (int i = 0; i < LANES; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
    return a;
}
#endif

inline Lanes load_lanes(const float* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store_lanes(float* p, const Lanes& v) { std::memcpy(p, &v, sizeof v); }

// into[i] += x[i] for i < n, eight at a time.
inline void add_lanes(float* into, const float* x, size_t n) {
    size_t i = 0;
    for (; i + LANES <= n; i += LANES) store_lanes(into + i, load_lanes(into + i) + load_lanes(x + i));
    for (; i < n; i++) into[i] += x[i];
}

// e^x in every lane: the same bits as the scalar exp in each.
inline Lanes exp_lanes(const Lanes& x) {
    Lanes e;
    for (int i = 0; i < LANES; i++) e[i] = std::exp(x[i]);
    return e;
}
