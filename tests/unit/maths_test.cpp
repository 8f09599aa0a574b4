// tests/unit/maths_test.cpp: our exp, log and cos (common/maths.hpp) against the C
// library's, measured in ulps (units in the last place of the true result);
// and maths.hpp's stand-ins for the rest of <cmath>, which must match it bit for bit.
//
//   maths_test               a stride through each range (a second or so)
//   maths_test --exhaustive  every float for exp_f and log_f, 2^24 points for the rest
//
// It prints each function's worst error, and fails above the bound the header
// promises. The C library's double functions are the reference: their own
// error (under one double ulp) is 2^-29 of a float ulp.
#include <cmath>
#include <cstring>
#include <math.h>  // fminf, fmin, fmaxf, fmax: the C library's own
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "maths.hpp"
#include "matrix.hpp"  // Rng

static float float_from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
static uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// The spacing of floats at the true value y (y > 0), subnormals included.
static double float_ulp(double y) {
    int e;
    std::frexp(y, &e);  // y = m 2^e with 0.5 <= m < 1
    return std::ldexp(1.0, (e - 1 > -126 ? e - 1 : -126) - 23);
}
static double double_ulp(double y) {
    int e;
    std::frexp(std::fabs(y), &e);
    return std::ldexp(1.0, (e - 1 > -1022 ? e - 1 : -1022) - 52);
}

// Worst float-ulp error of f against reference over the float bit patterns
// [first, last] taken every `stride`, on two threads.
template <class F, class R>
static double worst_float_ulps(uint32_t first, uint32_t last, uint32_t stride, F f, R reference) {
    double worst[2] = {0, 0};
    auto part = [&](int which) {
        for (uint64_t b = first + uint64_t(which) * stride; b <= last; b += 2 * uint64_t(stride)) {
            float x = float_from_bits(uint32_t(b));
            double want = reference(double(x)), got = f(x);
            if (want == 0.0 && got == 0.0) continue;
            double err = std::fabs(got - want) / float_ulp(std::fabs(want));
            if (!(err <= worst[which])) worst[which] = err;  // a NaN is the worst
        }
    };
    std::thread other(part, 1);
    part(0);
    other.join();
    return worst[0] > worst[1] || worst[0] != worst[0] ? worst[0] : worst[1];
}

// ---------------------------------------------------------------------------
// The <cmath> stand-ins, compared with the std:: functions bit for bit.

template <class T>
static bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// How often one stand-in differed from its std:: function, and the first argument where it did.
struct Differences {
    const char* name;
    long count = 0;
    double first_x = 0, first_y = 0;
    void note(bool differs, double x, double y = 0) {
        if (differs && count++ == 0) first_x = x, first_y = y;
    }
};

struct Comparison {
    long tried = 0, pairs = 0, other_zero = 0;  // other_zero: pairs (0, -0) where the C library gives the other zero
    long library_wrong = 0;                      // values below a half that the C library's lround rounds away from 0
    Differences sqrt{"square_root"}, fabs{"absolute"}, classify{"is_nan/is_infinite/is_finite"},
        lround{"nearest_long"}, floor{"round_down"}, ceil{"round_up"}, fmin{"min_number"}, fmax{"max_number"};
};

// lround's result is unspecified past long's range (32 bits on Windows).
const double LONG_RANGE = sizeof(long) >= 8 ? 9223372036854775808.0 : 2147483648.0;

// One argument against std:: (read through volatile, so that the C library
// answers, as it does in the programs, rather than the compiler's folding).
template <class T>
static void compare_one(T value, Comparison& c) {
    const volatile T v = value;
    const T x = v;
    c.tried++;
    c.sqrt.note(!same_bits(square_root(x), T(std::sqrt(x))), x);
    c.fabs.note(!same_bits(absolute(x), T(std::fabs(x))), x);
    c.classify.note(is_nan(x) != bool(std::isnan(x)) || is_infinite(x) != bool(std::isinf(x)) ||
                        is_finite(x) != bool(std::isfinite(x)),
                    x);
    if (absolute(x) < LONG_RANGE) {
        const long want = std::lround(x);
        // Below a half the answer is 0; MinGW-w64's lround gives 1 for 0.49999999999999994.
        if (absolute(x) < T(0.5) && want != 0) c.library_wrong++;
        c.lround.note(nearest_long(x) != (absolute(x) < T(0.5) ? 0 : want), x);
    }
    c.floor.note(!same_bits(round_down(x), T(std::floor(x))), x);
    c.ceil.note(!same_bits(round_up(x), T(std::ceil(x))), x);
}

// The C library's own fmin and fmax, called through a pointer: of 0 and -0, a
// compiler's std::fmin may give either (clang++ expands it inline, g++ may swap
// its operands), and the library is what the programs' results are held to.
static float (*volatile library_fmin_f)(float, float) = fminf;
static double (*volatile library_fmin_d)(double, double) = fmin;
static float (*volatile library_fmax_f)(float, float) = fmaxf;
static double (*volatile library_fmax_d)(double, double) = fmax;
static float library_fmin(float x, float y) { return library_fmin_f(x, y); }
static double library_fmin(double x, double y) { return library_fmin_d(x, y); }
static float library_fmax(float x, float y) { return library_fmax_f(x, y); }
static double library_fmax(double x, double y) { return library_fmax_d(x, y); }

// Which of 0 and -0 the library gives differs between machines: glibc's on
// x86-64 gives the second (minsd, maxsd), as ours does on every machine; elsewhere
// those pairs are only counted.
#if defined(__GLIBC__) && defined(__x86_64__)
const bool ZEROS_AS_OURS = true;
#else
const bool ZEROS_AS_OURS = false;
#endif

template <class T>
static void compare_pair(T first, T second, Comparison& c) {
    const volatile T vx = first, vy = second;
    const T x = vx, y = vy;
    c.pairs++;
    const T ours[2] = {min_number(x, y), max_number(x, y)}, library[2] = {library_fmin(x, y), library_fmax(x, y)};
    Differences* differences[2] = {&c.fmin, &c.fmax};
    for (int k = 0; k < 2; k++) {
        if (!ZEROS_AS_OURS && x == 0 && y == 0 && ours[k] == library[k])
            c.other_zero += !same_bits(ours[k], library[k]);
        else
            differences[k]->note(!same_bits(ours[k], library[k]), x, y);
    }
}

// Arithmetic makes only quiet NaNs; a signalling one (random bits) is made quiet.
static double quiet(double x) {
    uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    if (x != x) b |= 0x0008000000000000ull;
    std::memcpy(&x, &b, sizeof x);
    return x;
}
static float quiet(float x) {
    uint32_t b = bits_of(x);
    return x != x ? float_from_bits(b | 0x00400000u) : x;
}

// The special values of type T (zeros, subnormals, halves, the edges of
// whole-number-only range, infinities, NaNs), each with both signs.
template <class T>
static std::vector<T> special_values() {
    using L = std::numeric_limits<T>;
    const T all_whole = T(1) / L::epsilon();  // 2^52 or 2^23
    const T base[] = {T(0), L::denorm_min(), T(L::min() - L::denorm_min()), L::min(), T(1e-30), T(0.1), T(0.25),
                      std::nextafter(T(0.5), T(0)), T(0.5), std::nextafter(T(0.5), T(1)), T(0.49999999999999994),
                      T(0.75), T(1), T(1.5), T(2.5), T(3.5), T(3.7), T(1e6 + 0.5), all_whole - T(0.5),
                      all_whole - 1, all_whole, all_whole + 1, all_whole + 2, 2 * all_whole, T(4611686018427387904.0),
                      T(9223372036854775808.0) - 2 * T(1099511627776.0), T(1e30), L::max(), L::infinity(),
                      L::quiet_NaN()};
    std::vector<T> values;
    for (T x : base) values.push_back(x), values.push_back(-x);
    return values;
}

// Every stand-in on the special values (pairs of them for min and max) and on
// `samples` random bit patterns and random quarters of every size.
template <class T>
static Comparison compare_with_cmath(int samples) {
    Comparison c;
    const std::vector<T> specials = special_values<T>();
    for (T x : specials) {
        compare_one(x, c);
        for (T y : specials) compare_pair(x, y, c);
    }
    Rng rng(20250101);
    for (int i = 0; i < samples; i++) {
        const uint64_t bits = rng.next();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        const T any = sizeof(T) == 8 ? T(quiet(d)) : T(quiet(float_from_bits(uint32_t(bits))));
        // A whole number of quarters, 0 to 2^62, so that halves come often at every size.
        const T quarters = T(double(int64_t(rng.next()) >> (rng.below(62) + 1)) * 0.25);
        compare_one(any, c);
        compare_one(quarters, c);
        compare_pair(any, quarters, c);
        compare_pair(quarters, T(-quarters), c);
        compare_pair(any, T(quiet(float_from_bits(uint32_t(rng.next())))), c);
    }
    return c;
}

static void report(const Comparison& c, const char* type) {
    for (const Differences* d : {&c.sqrt, &c.fabs, &c.classify, &c.lround, &c.floor, &c.ceil, &c.fmin, &c.fmax}) {
        const bool pair = d == &c.fmin || d == &c.fmax;
        std::string what = std::string(d->name) + " (" + type + ") matches <cmath> bit for bit on " +
                           std::to_string(pair ? c.pairs : c.tried) + (pair ? " pairs" : " values");
        if (d->count) {
            std::printf("%s: %ld differ, the first at %.17g", d->name, d->count, d->first_x);
            if (pair) std::printf(", %.17g", d->first_y);
            std::printf("\n");
        }
        check(d->count == 0, what.c_str());
    }
    if (c.library_wrong)
        std::printf("lround %s: the C library here rounds %ld values below a half away from 0\n", type, c.library_wrong);
    if (c.other_zero)
        std::printf("(0, -0) %s: the C library here gives the other zero in %ld of them\n", type, c.other_zero);
}

int main(int argc, char** argv) {
    const bool exhaustive = argc > 1 && std::string(argv[1]) == "--exhaustive";
    const uint32_t stride = exhaustive ? 1 : 509;  // an odd stride meets every last-bit pattern

    // exp_f over every float whose e^x is a nonzero finite float.
    const double exp_pos = worst_float_ulps(0, bits_of(88.7228317f), stride, exp_f,
                                            [](double x) { return std::exp(x); });
    const double exp_neg = worst_float_ulps(0x80000000u, bits_of(-103.97207f), stride, exp_f,
                                            [](double x) { return std::exp(x); });
    const double exp_worst = exp_pos > exp_neg ? exp_pos : exp_neg;
    std::printf("exp_f     worst %.6f ulp over %s floats in [-103.97, 88.72]\n", exp_worst,
                exhaustive ? "all" : "1 in 509");
    check(exp_worst <= 0.501, "exp_f is within 0.501 ulp (about correctly rounded)");

    // log_f over every positive finite float, subnormals included.
    const double log_worst = worst_float_ulps(1, 0x7f7fffffu, stride, log_f, [](double x) { return std::log(x); });
    std::printf("log_f     worst %.6f ulp over %s positive finite floats\n", log_worst,
                exhaustive ? "all" : "1 in 509");
    check(log_worst <= 0.501, "log_f is within 0.501 ulp");

    // log_d and cos_turns on doubles spread by our own generator's bits.
    const int samples = exhaustive ? 1 << 24 : 1 << 18;
    uint64_t state = 12345;
    auto next = [&state]() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    double expd_worst = 0, logd_worst = 0, cos_worst = 0;
    const bool long_double_is_wider = sizeof(long double) > sizeof(double);
    for (int i = 0; i < samples; i++) {
        uint64_t b = next() & 0x7fefffffffffffffull;  // any positive finite double
        double x;
        std::memcpy(&x, &b, sizeof x);
        double err = std::fabs(log_d(x) - std::log(x)) / double_ulp(std::log(x));
        if (!(err <= logd_worst)) logd_worst = err;
        double y = -745.0 + 1454.0 * (double(next() >> 11) * (1.0 / 9007199254740992.0));  // [-745, 709]
        if (std::exp(y) > 0.0) {
            double e_err = std::fabs(exp_d(y) - std::exp(y)) / double_ulp(std::exp(y));
            if (!(e_err <= expd_worst)) expd_worst = e_err;
        }
        double t = double(next() >> 11) * (1.0 / 9007199254740992.0);  // [0, 1) as Rng draws it
        long double want = long_double_is_wider ? std::cos(6.28318530717958647692528676655900577L * t)
                                                : std::cos(6.283185307179586 * t);
        double abs_err = double(std::fabs((long double)cos_turns(t) - want));
        if (!(abs_err <= cos_worst)) cos_worst = abs_err;
    }
    std::printf("exp_d     worst %.4f ulp over %d doubles in [-745, 709]\n", expd_worst, samples);
    std::printf("log_d     worst %.4f ulp over %d positive doubles\n", logd_worst, samples);
    std::printf("cos_turns worst %.2e absolute over %d turns in [0, 1)%s\n", cos_worst, samples,
                long_double_is_wider ? "" : " (reference in double)");
    check(expd_worst <= 1.25, "exp_d is within 1.25 ulp");
    check(logd_worst <= 1.25, "log_d is within 1.25 ulp");
    check(cos_worst <= (long_double_is_wider ? 2.5e-16 : 1e-15), "cos_turns is within 2.5e-16 of cos(2 pi t)");

    // The stand-ins for the rest of <cmath>.
    const Comparison floats = compare_with_cmath<float>(samples), doubles = compare_with_cmath<double>(samples);
    report(floats, "float");
    report(doubles, "double");
    std::printf("<cmath> stand-ins compared with std:: on %ld float and %ld double arguments\n",
                floats.tried + floats.pairs, doubles.tried + doubles.pairs);

    // The edges every caller relies on.
    const float inf = std::numeric_limits<float>::infinity();
    check(exp_f(0.0f) == 1.0f && exp_f(-inf) == 0.0f && exp_f(inf) == inf, "exp_f(0) = 1, exp_f(-inf) = 0, exp_f(inf) = inf");
    check(exp_f(88.7228317f) < inf && exp_f(88.7228394f) == inf, "exp_f overflows exactly past the largest float");
    check(exp_f(-103.97207f) > 0.0f && exp_f(-103.972084f) == 0.0f, "exp_f reaches the smallest subnormal, then 0");
    check(exp_f(std::nanf("")) != exp_f(std::nanf("")), "exp_f(NaN) is NaN");
    check(exp_d(0.0) == 1.0 && exp_d(-INFINITY) == 0.0 && exp_d(710.0) == INFINITY && exp_d(-745.0) > 0.0,
          "exp_d at 0, -inf, past the largest double, at the smallest subnormal");
    check(log_d(1.0) == 0.0 && log_f(1.0f) == 0.0f, "log(1) = 0 exactly");
    check(log_d(0.0) == -std::numeric_limits<double>::infinity() && log_d(-1.0) != log_d(-1.0),
          "log(0) = -inf, log(-1) is NaN");
    check(log_d(std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity(), "log(inf) = inf");
    check_near(log_d(4.9406564584124654e-324), -744.44007192138126, 1e-12, "log of the smallest subnormal double");
    check(cos_turns(0.0) == 1.0 && cos_turns(0.5) == -1.0 && cos_turns(0.25) == 0.0, "cos at 0, a half and a quarter turn");
    check(cos_turns(-0.25) == 0.0 && cos_turns(1.75) == 0.0 && cos_turns(-0.5) == -1.0, "cos of negative and whole turns");
    check(power(2.0, 10) == 1024.0 && power(0.5, 0) == 1.0 && power(3.0, 5) == 243.0, "power on exact cases");
    // Each squaring doubles the relative error, so base^n is good to about n ulps.
    check_near(power(0.999, 12000) / std::pow(0.999, 12000), 1.0, 12000 * 2.3e-16, "power(0.999, 12000) against pow");
    return check_summary("maths_test");
}
