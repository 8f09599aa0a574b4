// tests/grader/grader.hpp: what an exercise's test file is written with.
//
// A test file (tests/grader/<id>.cpp) includes the student's program with its
// main renamed, names its tests, and hands them to grader::run:
//
//   #include "grader.hpp"
//   #define main lesson_main
//   #include STUDENT_SOURCE
//   #undef main
//
//   static void book_input(grader::Test& t) { t.numbers("weights", cross_attention(...).weights); }
//   ...
//   int main(int argc, char** argv) {
//       return grader::run(argc, argv, GRADER_LESSON(lesson_main), {
//           grader::compare("book_input", 2, 1e-4, book_input, "a hint"),
//           grader::property("rows_sum_to_one", 1, rows_sum_to_one, "a hint"),
//           grader::printed_output(2, "a hint"),
//       });
//   }
//
// The driver (tests/grader/grade.sh) builds that file twice, against the
// reference solution and against the student's file, and runs each test in a
// process of its own:
//   --list                   one line per test: name, points, kind, tolerance, hint
//   --run NAME --seed S      one test; exit 0 passed (or numbers printed), 1 failed
//   --lesson [ARGS]          the program's own main, the lesson
// A compare test prints numbers, which the driver compares between the two
// builds (tests/grader/gradetool.cpp); a property test passes or fails in the
// student's build alone; printed_output compares the lessons' printed words
// and numbers.
#pragma once

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "matrix.hpp"

namespace grader {

enum class Kind { COMPARE, PROPERTY, OUTPUT };
inline const char* kind_name(Kind k) {
    return k == Kind::COMPARE ? "compare" : k == Kind::PROPERTY ? "property" : "output";
}

// A test stops at its first failed expectation by throwing this.
struct Failed {
    std::string message;
};

// What a test body is given: the seeded random inputs, and the ways to report.
class Test {
public:
    Rng rng;
    explicit Test(uint64_t seed) : rng(seed) {}

    // ---- Hidden inputs, drawn from the run's seed (the same in both builds).
    // A whole number from lo to hi, both included.
    int size(int lo, int hi) { return lo + rng.below(hi - lo + 1); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * rng.uniform(); }
    // (rows x cols) entries uniform in [lo, hi).
    Matrix matrix(int rows, int cols, float lo = -1.0f, float hi = 1.0f) {
        Matrix A(rows, cols);
        for (float& x : A.data) x = uniform(lo, hi);
        return A;
    }
    std::vector<float> vector(int n, float lo = -1.0f, float hi = 1.0f) {
        std::vector<float> v;
        v.resize(size_t(n));
        for (float& x : v) x = uniform(lo, hi);
        return v;
    }

    // ---- Compare tests: numbers the driver sets against the reference's.
    // One line per call, "@grader label rows cols v v v ...", 9 significant
    // digits; the prefix tells them apart from anything else the code prints.
    void numbers(const std::string& label, const Matrix& A) { emit(label, A.rows, A.cols, A.data.data()); }
    void numbers(const std::string& label, const std::vector<float>& v) { emit(label, 1, int(v.size()), v.data()); }
    void numbers(const std::string& label, const std::vector<int>& v) {
        std::printf("@grader %s 1 %d", word(label).c_str(), int(v.size()));
        for (int x : v) std::printf(" %d", x);
        std::printf("\n");
    }
    void number(const std::string& label, double x) { std::printf("@grader %s 1 1 %.17g\n", word(label).c_str(), x); }

    // ---- Property tests (and sanity checks in compare tests): the first
    // failed expectation ends the test with its message.
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    void expect(bool ok, const char* format, ...) {
        if (ok) return;
        char text[1000];
        va_list args;
        va_start(args, format);
        std::vsnprintf(text, sizeof text, format, args);
        va_end(args);
        throw Failed{text};
    }
    // A matrix of the stated shape, or a message naming what came back.
    void expect_shape(const Matrix& A, int rows, int cols, const char* what) {
        expect(A.rows == rows && A.cols == cols && A.data.size() == size_t(rows) * size_t(cols),
               "%s is %d x %d (%zu numbers); want %d x %d", what, A.rows, A.cols, A.data.size(), rows, cols);
    }

    // Rows of attention weights: the stated shape, no negative entry, and
    // every row summing to 1 within `tolerance` (float rounding over a few
    // dozen weights is ~1e-7, so 1e-5 catches a missing or wrong softmax only).
    void expect_softmax_rows(const Matrix& W, int rows, int cols, const char* what = "weights",
                             double tolerance = 1e-5) {
        expect_shape(W, rows, cols, what);
        for (int i = 0; i < W.rows; i++) {
            double sum = 0;
            for (int j = 0; j < W.cols; j++) {
                expect(W(i, j) >= 0, "%s(%d, %d) = %g is negative", what, i, j, double(W(i, j)));
                sum += W(i, j);
            }
            expect(std::fabs(sum - 1.0) <= tolerance, "row %d of %s sums to %.6f, not 1", i, what, sum);
        }
    }

private:
    // A label is one word: spaces become underscores.
    static std::string word(std::string label) {
        for (char& c : label)
            if (c == ' ' || c == '\t' || c == '\n') c = '_';
        return label;
    }
    void emit(const std::string& label, int rows, int cols, const float* x) {
        std::printf("@grader %s %d %d", word(label).c_str(), rows, cols);
        for (int i = 0; i < rows * cols; i++) std::printf(" %.9g", double(x[i]));
        std::printf("\n");
    }
};

// ---------------------------------------------------------------------------
// Relative error, as CS231n's rel_error: |a - b| / max(|a| + |b|, floor).
// The floor keeps entries that are zero in exact arithmetic (and float noise
// in practice) from counting as large relative errors.
inline double rel_error(double a, double b, double floor = 1e-8) {
    double scale = std::fabs(a) + std::fabs(b);
    return std::fabs(a - b) / (scale > floor ? scale : floor);
}

// A whole gradient against another, as one number: ||a - b|| / max(||a|| + ||b||, floor).
// Used for finite differences, where a single entry near zero would otherwise
// decide the verdict on float rounding alone; the floor does the same for a
// whole gradient that is nearly zero (a saturated softmax passes almost nothing back).
inline double rel_error_norm(const std::vector<double>& a, const std::vector<double>& b, double floor = 0.0) {
    double diff = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
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

// Numbers printed by `body`, against the reference's, entry by entry.
inline Case compare(const char* name, int points, double tolerance, Body body, const char* hint) {
    return {name, points, Kind::COMPARE, tolerance, body, hint};
}
// A property that `body` checks in the student's build alone.
inline Case property(const char* name, int points, Body body, const char* hint) {
    return {name, points, Kind::PROPERTY, 0.0, body, hint};
}
// The lesson's printed output against the reference's, as words and numbers.
inline Case printed_output(int points, const char* hint) {
    return {"printed_output", points, Kind::OUTPUT, 0.0, nullptr, hint};
}

// The lesson's main, whichever of the two signatures the student kept.
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
#define GRADER_LESSON(f) [](int argc, char** argv) { return ::grader::call_lesson(&f, argc, argv); }

// One seed per test, from the run's seed and the test's name, so that a test
// draws the same inputs in both builds whichever other tests run.
inline uint64_t test_seed(uint64_t seed, const char* name) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the name
    for (const char* c = name; *c; c++) h = (h ^ uint64_t(uint8_t(*c))) * 1099511628211ull;
    return seed ^ h;
}

// Keeps one line a line: tabs and newlines in hints become spaces.
inline std::string one_line(const char* text) {
    std::string s = text ? text : "";
    for (char& c : s)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return s;
}

inline int run(int argc, char** argv, Lesson lesson, const std::vector<Case>& cases) {
    const char* usage = "usage: TEST --list | --run NAME --seed N | --lesson [ARGS...]\n";
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
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        for (const Case& c : cases)
            std::printf("%s\t%d\t%s\t%g\t%s\n", c.name, c.points, kind_name(c.kind), c.tolerance,
                        one_line(c.hint).c_str());
        return 0;
    }
    if (argc == 5 && std::strcmp(argv[1], "--run") == 0 && std::strcmp(argv[3], "--seed") == 0) {
        for (const Case& c : cases) {
            if (std::strcmp(c.name, argv[2]) != 0 || !c.body) continue;
            Test t(test_seed(std::strtoull(argv[4], nullptr, 10), c.name));
            try {
                c.body(t);
            } catch (const Failed& f) {
                std::fflush(stdout);
                std::fprintf(stderr, "%s\n", f.message.c_str());
                return 1;
            } catch (const std::exception& e) {
                std::fflush(stdout);
                std::fprintf(stderr, "threw an exception: %s\n", e.what());
                return 3;
            }
            return 0;
        }
        std::fprintf(stderr, "no test named '%s'\n", argv[2]);
        return 2;
    }
    std::fputs(usage, stderr);
    return 2;
}

}  // namespace grader
