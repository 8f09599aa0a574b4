// common/maths.hpp: our own exp, log, cos and integer power. Everything else
// comes from <cmath>: sqrt, fabs, floor and the like are exact, the same bits from every C library.
//
// C libraries round the last bit of exp, log and cos differently (glibc, the
// Windows runtime, libc++ on a Mac, Apple's libm), and that bit reaches the
// digits a lesson prints and the weights a trainer writes. These are plain
// double arithmetic in a fixed order: +, -, *, / and sqrt are rounded the same
// way on every IEEE machine (built with -ffp-contract=off, so no fused
// multiply-adds), so every platform gets the same bits.
//
// Each works in double and rounds once at the end, so the float results are
// the correctly rounded value almost always. Measured by tests/unit/maths_test.cpp
// against the C library's double functions (every float with --exhaustive):
//   exp_f      every float in [-103.97, 88.72]     worst 0.500000 ulp (float)
//   log_f      every positive finite float          worst 0.500000 ulp (float)
//   exp_d      2^24 doubles in [-745, 709]          worst 1.0 ulp (double)
//   log_d      2^24 positive doubles                worst 1.0 ulp (double)
//   cos_turns  2^24 turns in [0, 1)                 worst 1.8e-16 absolute
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace maths_detail {

// ln 2 split in two: LN2_HI has its low bits zero, so k * LN2_HI is exact.
constexpr double LN2_HI = 6.93147180369123816490e-01;
constexpr double LN2_LO = 1.90821492927058770002e-10;
constexpr double LOG2_E = 1.44269504088896338700e+00;
constexpr double ROUNDER = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to a whole number

// 2^k as a double, for k in the normal range, by writing its exponent bits.
inline double two_to(int k) {
    uint64_t bits = uint64_t(int64_t(k) + 1023) << 52;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

}  // namespace maths_detail

// e^r for |r| <= ln 2 / 2: its Taylor series to r^13 / 13! by Horner's rule on
// 1/n!, each constant one correctly rounded division made at compile time. D is
// double, or several vectors of doubles worked on together (chapter_tiny/lanes.hpp's
// exp_lanes): the same operations in the same order, so the same bits.
template <class D>
inline D exp_series(const D& r) {
    D p = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;  // 1/13!, 1/12!
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    return p * r + 1.0;
}

// e^x for a double x. Write x = k ln 2 + r with |r| <= ln 2 / 2; then
// e^x = 2^k e^r, and e^r is exp_series (the next term is below 2^-57 of the result).
inline double exp_d(double x) {
    using namespace maths_detail;
    if (x != x) return x;                                                      // NaN stays NaN
    if (x > 709.782712893384) return std::numeric_limits<double>::infinity();  // past the largest double
    if (x < -745.2) return 0.0;                                                // below half the smallest
    const double k = (x * LOG2_E + ROUNDER) - ROUNDER;                         // the nearest whole number
    const double r = (x - k * LN2_HI) - k * LN2_LO;
    const double p = exp_series(r);
    // 2^k in two steps when e^x is a subnormal, so the one rounding is the last multiply.
    return k < -1000 ? p * two_to(int(k) + 64) * two_to(-64) : p * two_to(int(k));
}

// e^x for a float x: the double result, rounded once to float.
inline float exp_f(float x) {
    if (x > 88.7228317f) return std::numeric_limits<float>::infinity();  // past the largest float
    if (x < -104.0f) return 0.0f;                                        // below half the smallest
    return float(exp_d(x));
}

// ln x for a double x. Write x = 2^e (1 + f) with sqrt(1/2) <= 1 + f < sqrt(2);
// then ln x = e ln 2 + ln(1 + f). With s = f / (2 + f), ln(1 + f) = 2 atanh(s)
// = 2s + s R, R = 2 (s^2/3 + s^4/5 + ... + s^24/25) (|s| < 0.172), and since
// 2s = f - s f, ln(1 + f) = f - (f^2/2 - s (f^2/2 + R)): f itself is exact, so
// only the small correction carries rounding error.
inline double log_d(double x) {
    using namespace maths_detail;
    if (x != x || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0) return -std::numeric_limits<double>::infinity();
    if (x == std::numeric_limits<double>::infinity()) return x;
    int e = 0;
    if (x < 2.2250738585072014e-308) x *= 18014398509481984.0, e = -54;  // a subnormal: scale by 2^54
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    e += int((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;  // 1 + f in [1, 2)
    double m;
    std::memcpy(&m, &bits, sizeof m);
    if (m > 1.4142135623730951) m *= 0.5, e += 1;
    const double f = m - 1.0, s = f / (2.0 + f), z = s * s, half_f2 = 0.5 * f * f;
    double R = 2.0 / 25.0;
    for (int n = 23; n >= 3; n -= 2) R = R * z + 2.0 / n;
    R *= z;
    return e * LN2_HI - ((half_f2 - (s * (half_f2 + R) + e * LN2_LO)) - f);
}

// ln x for a float x, rounded once from the double.
inline float log_f(float x) { return float(log_d(x)); }

// cos(2 pi t) for |t| < 2^52: the angle is given in turns, so reducing it to
// within 1/8 of a quarter turn is exact; then sin's or cos's Taylor series
// on [-pi/4, pi/4], to x^17 and x^18.
inline double cos_turns(double t) {
    const double TWO_PI = 6.283185307179586;
    t -= double(int64_t(t));                                                 // the fraction of a turn, exactly
    const double quarter = double(int64_t(t * 4.0 + (t < 0 ? -0.5 : 0.5)));  // nearest quarter
    const double x = TWO_PI * (t - quarter * 0.25), x2 = x * x;
    double c = 1.0 / 6402373705728000.0, s = 1.0 / 355687428096000.0;  // 1/18!, 1/17!
    // Two lines a table, as written: the formatter would put one number on each line.
    // clang-format off
    const double cos_denominators[] = {20922789888000.0, 87178291200.0, 479001600.0, 3628800.0, 40320.0,
                                       720.0, 24.0, 2.0, 1.0};  // 16!, 14!, ..., 2!, 0!
    const double sin_denominators[] = {1307674368000.0, 6227020800.0, 39916800.0, 362880.0, 5040.0,
                                       120.0, 6.0, 1.0};  // 15!, 13!, ..., 3!, 1!
    // clang-format on
    for (int i = 0; i < 9; i++) c = c * -x2 + 1.0 / cos_denominators[i];
    for (int i = 0; i < 8; i++) s = s * -x2 + 1.0 / sin_denominators[i];
    s *= x;
    switch (int64_t(quarter) & 3) {
        case 0: return c;
        case 1: return -s;
        case 2: return -c;
        default: return s;
    }
}

// base^n for a whole n >= 0, by squaring, in a fixed order.
inline double power(double base, long n) {
    double result = 1.0;
    for (; n > 0; n >>= 1, base *= base)
        if (n & 1) result *= base;
    return result;
}
