// tests/unit/maths_test.cpp: our exp, log and cos (common/maths.hpp) against the C
// library's, measured in ulps (units in the last place of the true result).
//
//   maths_test               a stride through each range (a second or so)
//   maths_test --exhaustive  every float for exp_f and log_f, 2^24 points for the rest
//
// It prints each function's worst error, and fails above the bound the header
// promises. The C library's double functions are the reference: their own
// error (under one double ulp) is 2^-29 of a float ulp.
#include <cmath>
#include <cstring>
#include <string>
#include <thread>

#include "check.hpp"
#include "maths.hpp"

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

int main(int argc, char** argv) {
    const bool exhaustive = argc > 1 && std::string(argv[1]) == "--exhaustive";
    const uint32_t stride = exhaustive ? 1 : 509;  // an odd stride meets every last-bit pattern

    // exp_f over every float whose e^x is a nonzero finite float.
    const double exp_pos =
        worst_float_ulps(0, bits_of(88.7228317f), stride, exp_f, [](double x) { return std::exp(x); });
    const double exp_neg =
        worst_float_ulps(0x80000000u, bits_of(-103.97207f), stride, exp_f, [](double x) { return std::exp(x); });
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

    // The edges every caller relies on.
    const float inf = std::numeric_limits<float>::infinity();
    check(exp_f(0.0f) == 1.0f && exp_f(-inf) == 0.0f && exp_f(inf) == inf,
          "exp_f(0) = 1, exp_f(-inf) = 0, exp_f(inf) = inf");
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
    check(cos_turns(0.0) == 1.0 && cos_turns(0.5) == -1.0 && cos_turns(0.25) == 0.0,
          "cos at 0, a half and a quarter turn");
    check(cos_turns(-0.25) == 0.0 && cos_turns(1.75) == 0.0 && cos_turns(-0.5) == -1.0,
          "cos of negative and whole turns");
    check(power(2.0, 10) == 1024.0 && power(0.5, 0) == 1.0 && power(3.0, 5) == 243.0, "power on exact cases");
    // Each squaring doubles the relative error, so base^n is good to about n ulps.
    check_near(power(0.999, 12000) / std::pow(0.999, 12000), 1.0, 12000 * 2.3e-16, "power(0.999, 12000) against pow");
    return check_summary("maths_test");
}
