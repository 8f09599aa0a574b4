// tests/unit/check.hpp: the few lines every check program shares.
// A check prints each failure, keeps going, and exits 1 if any failed.
#pragma once

#include <cmath>
#include <cstdio>

static int check_failures = 0;
static int check_count = 0;

inline void check(bool ok, const char* what) {
    check_count++;
    if (!ok) {
        check_failures++;
        std::printf("FAILED: %s\n", what);
    }
}

inline void check_near(double got, double want, double tolerance, const char* what) {
    check_count++;
    if (!(std::fabs(got - want) <= tolerance)) {
        check_failures++;
        std::printf("FAILED: %s: got %.9g, want %.9g (tolerance %g)\n", what, got, want, tolerance);
    }
}

// The value of main: prints a summary line, returns 1 on any failure.
inline int check_summary(const char* name) {
    std::printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}
