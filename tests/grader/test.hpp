// tests/grader/test.hpp: the language a tests file writes its tests in: a Test's seeded inputs,
// numbers() and expect(), and compare(), property() and printed_output() to declare one.
#pragma once

#include "process.hpp"

namespace grader {

enum class Kind { COMPARE, PROPERTY, OUTPUT };

// ---------------------------------------------------------------------------
// What a test body is given: the seeded inputs, and the ways to report.
class Test {
public:
    Rng rng;
    std::vector<judge::Block> blocks;  // what numbers() gave, in order
    explicit Test(uint64_t seed) : rng(seed) {}

    // ---- Hidden inputs, drawn from the run's seed (the same for both runs of a compare test).
    int size(int lo, int hi) { return lo + rng.below(hi - lo + 1); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * rng.uniform(); }
    Matrix matrix(int rows, int cols, float lo = -1.0f, float hi = 1.0f) {
        Matrix A(rows, cols);
        for (float& x : A.data) x = uniform(lo, hi);
        return A;
    }
    std::vector<float> vector(int n, float lo = -1.0f, float hi = 1.0f) {
        std::vector<float> v(static_cast<size_t>(n));
        for (float& x : v) x = uniform(lo, hi);
        return v;
    }

    // ---- Compare tests: numbers set against the reference's.
    void numbers(const std::string& label, const Matrix& A) {
        blocks.push_back({label, A.rows, A.cols, std::vector<double>(A.data.begin(), A.data.end())});
    }
    template <class T>
    void numbers(const std::string& label, const std::vector<T>& v) {  // float or int
        blocks.push_back({label, 1, int(v.size()), std::vector<double>(v.begin(), v.end())});
    }
    void number(const std::string& label, double x) { blocks.push_back({label, 1, 1, {x}}); }

    // ---- Property tests (and checks in compare tests): the first failed expectation ends the test.
    [[gnu::format(printf, 3, 4)]] void expect(bool ok, const char* format, ...) {
        if (ok) return;
        char text[1000];
        va_list args;
        va_start(args, format);
        std::vsnprintf(text, sizeof text, format, args);
        va_end(args);
        throw Failed{text};
    }
    void expect_shape(const Matrix& A, int rows, int cols, const char* what) {
        expect(A.rows == rows && A.cols == cols && A.data.size() == size_t(rows) * size_t(cols),
               "%s is %d x %d (%zu numbers); want %d x %d", what, A.rows, A.cols, A.data.size(), rows, cols);
    }
};

using judge::rel_error;  // CS231n's, as the compare tests use it
// A whole gradient against another: ||a - b|| / max(||a|| + ||b||, floor).
inline double rel_error_norm(const std::vector<double>& a, const std::vector<double>& b, double floor = 0.0) {
    double diff = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    if (a.size() != b.size()) return INFINITY;
    double scale = std::fmax(std::sqrt(na) + std::sqrt(nb), floor);
    return scale > 0 ? std::sqrt(diff) / scale : 0.0;
}

// ---------------------------------------------------------------------------
// The tests of one exercise.
using Body = void (*)(Test&);

struct Case {
    const char* name;
    int points;
    Kind kind;
    double tolerance;  // compare tests: largest rel_error accepted
    Body body;
    const char* hint;  // shown when the test fails: where to look, never the answer
};
inline Case compare(const char* name, int points, double tolerance, Body body, const char* hint) {
    return {name, points, Kind::COMPARE, tolerance, body, hint};
}
inline Case property(const char* name, int points, Body body, const char* hint) {
    return {name, points, Kind::PROPERTY, 0.0, body, hint};
}
inline Case printed_output(int points, const char* hint) {
    return {"printed_output", points, Kind::OUTPUT, 0.0, nullptr, hint};
}

}  // namespace grader
