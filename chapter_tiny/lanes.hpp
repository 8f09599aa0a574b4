// chapter_tiny/lanes.hpp: eight floats worked on at once.
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

#include <cstddef>
#include <cstring>
#include <limits>

#include "maths.hpp"  // exp_f

constexpr int LANES = 8;

#if defined(__GNUC__) && !defined(LANES_PLAIN)  // g++ and clang++ (-DLANES_PLAIN: the struct, for tests)
// A 32-byte vector argument is passed differently with and without AVX; these
// are inline functions inside one program, so the warning does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
// Unrolls the loop that follows, so a tile's sums stay in registers
// (tiny_train: 189,300 tokens per CPU second with it, 62,800 without).
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
#define LANES_OP(op)                                                          \
    inline Lanes operator op(Lanes a, Lanes b) {                              \
        for (int i = 0; i < LANES; i++) a.v[i] = a.v[i] op b.v[i];            \
        return a;                                                             \
    }                                                                         \
    inline Lanes operator op(Lanes a, float b) { return a op same_lanes(b); } \
    inline Lanes operator op(float a, Lanes b) { return same_lanes(a) op b; } \
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

// rows[0..7] become their transpose: afterwards rows[i][j] is what rows[j][i]
// was. It moves floats and computes nothing, so no bit changes.
#if defined(__GNUC__) && !defined(LANES_PLAIN) && (defined(__clang__) || __GNUC__ >= 12)  // __builtin_shufflevector
inline void transpose_lanes(Lanes* r) {
    // Three rounds of shuffles, as with AVX's unpack, shuffle and permute: pairs, fours, halves.
    Lanes a[8], b[8];
    UNROLLED for (int i = 0; i < 8; i += 2) {
        a[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        a[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    UNROLLED for (int i = 0; i < 8; i += 4) {
        UNROLLED for (int j = 0; j < 2; j++) {
            b[i + 2 * j] = __builtin_shufflevector(a[i + j], a[i + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            b[i + 2 * j + 1] = __builtin_shufflevector(a[i + j], a[i + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    }
    UNROLLED for (int i = 0; i < 4; i++) {
        r[i] = __builtin_shufflevector(b[i], b[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[i + 4] = __builtin_shufflevector(b[i], b[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}
#else
inline void transpose_lanes(Lanes* r) {
    Lanes t[LANES];
    for (int i = 0; i < LANES; i++)
        for (int j = 0; j < LANES; j++) t[i][j] = r[j][i];
    for (int i = 0; i < LANES; i++) r[i] = t[i];
}
#endif

// exp_f in every lane of x[0], ..., x[n-1], one lane at a time: the bits of
// exp_lanes below, slower, but far less code (the plain build's exp_lanes).
inline void exp_each_lane(Lanes* x, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < LANES; j++) x[i][j] = exp_f(x[i][j]);
}

// exp_f (common/maths.hpp) in every lane of x[0], ..., x[N-1], in place, with
// exp_f's bits. With g++ (12 or later) and clang++ it is exp_d's arithmetic on
// vectors of four doubles; the only difference is how 2^k is made: k is read
// from the low bits of x log2(e) + ROUNDER instead of converting the double k
// to an integer (the same k; machines before AVX-512 have no instruction for
// the conversion). The N vectors go through each step of the series together:
// one exp is a chain of 28 dependent operations, and 2N chains side by side
// keep the machine busy while each waits for its last step.
#if defined(__GNUC__) && !defined(LANES_PLAIN) && (defined(__clang__) || __GNUC__ >= 12)  // __builtin_shufflevector
typedef double Doubles __attribute__((vector_size(4 * sizeof(double))));
typedef float Floats __attribute__((vector_size(4 * sizeof(float))));
// Unsigned, so a lane outside the range (masked off by the caller) wraps instead of overflowing.
typedef unsigned long long Longs __attribute__((vector_size(4 * sizeof(unsigned long long))));

// M vectors of four doubles; each operation works on all of them, one after
// another. The compiler would otherwise reorder the work into one whole chain
// after another, and the machine, which looks only so far ahead, would wait on
// each step of each chain: an empty asm that takes and gives back each result
// keeps every operation's M results together (it changes no bits).
template <int M>
struct DoublesBunch {
    Doubles d[M];
};
template <int M>
inline void side_by_side(DoublesBunch<M>& c) {
#if defined(__AVX__)  // a 32-byte vector fits one register only with AVX
    UNROLLED for (int i = 0; i < M; i++) asm volatile("" : "+x"(c.d[i]));
#else
    (void)c;
#endif
}
#define BUNCH_OP(op)                                                                         \
    template <int M>                                                                         \
    inline DoublesBunch<M> operator op(const DoublesBunch<M>& a, const DoublesBunch<M>& b) { \
        DoublesBunch<M> c;                                                                   \
        UNROLLED for (int i = 0; i < M; i++) c.d[i] = a.d[i] op b.d[i];                      \
        side_by_side(c);                                                                     \
        return c;                                                                            \
    }                                                                                        \
    template <int M>                                                                         \
    inline DoublesBunch<M> operator op(const DoublesBunch<M>& a, double b) {                 \
        DoublesBunch<M> c;                                                                   \
        UNROLLED for (int i = 0; i < M; i++) c.d[i] = a.d[i] op b;                           \
        side_by_side(c);                                                                     \
        return c;                                                                            \
    }
BUNCH_OP(+)
BUNCH_OP(-)
BUNCH_OP(*)
#undef BUNCH_OP

// Lanes 0-3 (HALF 0) or 4-7 (HALF 1) of x as four doubles. g++ 12 makes
// __builtin_convertvector of four floats two conversions of two, one of them
// through memory; with AVX, g++ is given the one instruction by name (the
// builtin that <immintrin.h>'s _mm256_cvtps_pd calls: including that header
// takes tiny_train's AVX build from 3.6 s to 4.3 s of CPU). clang++ needs no help.
template <int HALF>
inline Doubles as_doubles(const Lanes& x) {
#if defined(__AVX__) && !defined(__clang__)
    return __builtin_ia32_cvtps2pd256(__builtin_ia32_vextractf128_ps256(x, HALF));
#else
    return __builtin_convertvector(__builtin_shufflevector(x, x, 4 * HALF, 4 * HALF + 1, 4 * HALF + 2, 4 * HALF + 3),
                                   Doubles);
#endif
}

// flatten: every call inside is inlined, else the series and operators pass 32-byte
// vectors through memory (tiny_train: 189,600 tokens per CPU second with it, 179,600 without).
template <int N>
[[gnu::flatten]] inline void exp_lanes(Lanes* x) {
    using namespace maths_detail;
    // Lanes 0-3 and 4-7 of each x as doubles, split (and joined again below) by
    // shuffles: a copy through memory would stall each load on the stores before it.
    DoublesBunch<2 * N> xd;
    UNROLLED for (int i = 0; i < N; i++) {
        xd.d[2 * i] = as_doubles<0>(x[i]);
        xd.d[2 * i + 1] = as_doubles<1>(x[i]);
    }
    const DoublesBunch<2 * N> shifted = xd * LOG2_E + ROUNDER;  // k + ROUNDER: k sits in the low bits
    const DoublesBunch<2 * N> k = shifted - ROUNDER;
    const DoublesBunch<2 * N> p = exp_series((xd - k * LN2_HI) - k * LN2_LO);
    const Longs rounder = (Longs)(Doubles{ROUNDER, ROUNDER, ROUNDER, ROUNDER});
    UNROLLED for (int i = 0; i < N; i++) {
        Floats half[2];
        UNROLLED for (int j = 0; j < 2; j++) {
            const Longs bits = ((Longs)shifted.d[2 * i + j] - rounder + 1023)
                               << 52;  // two_to(k): k + 1023 in the exponent bits
            half[j] = __builtin_convertvector(p.d[2 * i + j] * (Doubles)bits, Floats);
        }
        Lanes e = __builtin_shufflevector(half[0], half[1], 0, 1, 2, 3, 4, 5, 6, 7);
        e = x[i] < -104.0f ? same_lanes(0.0f) : e;  // exp_f's first two branches, and NaN stays NaN
        e = x[i] > 88.7228317f ? same_lanes(std::numeric_limits<float>::infinity()) : e;
        x[i] = x[i] != x[i] ? x[i] : e;
    }
}
#else
template <int N>
inline void exp_lanes(Lanes* x) {
    exp_each_lane(x, N);
}
#endif

inline Lanes exp_lanes(const Lanes& x) {
    Lanes e = x;
    exp_lanes<1>(&e);
    return e;
}

// How many vectors exp_lanes_all takes at a time: 4 (eight chains of doubles)
// was the fastest of 1, 2, 3, 4, 6 and 8 here, 1.6 times as fast as 2; more
// run out of registers.
constexpr int EXP_BUNCH = 4;

// exp_lanes on x[0], ..., x[n-1], EXP_BUNCH at a time.
inline void exp_lanes_all(Lanes* x, int n) {
    int i = 0;
    for (; i + EXP_BUNCH <= n; i += EXP_BUNCH) exp_lanes<EXP_BUNCH>(x + i);
    for (; i < n; i++) exp_lanes<1>(x + i);
}
