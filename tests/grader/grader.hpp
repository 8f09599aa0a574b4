// tests/grader/grader.hpp: what an exercise's tests file is written with.
//
// A tests file (tests/grader/<id>.cpp) is built twice (tests/grader/grade.sh):
//   - as the student's DRIVER (driver.hpp), from the student's file and the
//     handout's headers, in the student's sandbox: it runs the functions the
//     student writes when asked, and decides nothing;
//   - as the CHECKER (checker.hpp, with -DGRADER_CHECKER), from the reference
//     solution and the full headers: it makes the inputs, calls the student's
//     functions in the driver's process, the reference's in its own, and
//     awards the points.
//
//   #include "grader.hpp"                    // the exercise's file, its main renamed lesson_main
//   #define STUDENT_FUNCTIONS(X) X(cross_attention)
//   GRADER_FIELDS(Attention, Q, K, V, weights, out)  // how a struct travels
//   GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)
//   #ifdef GRADER_CHECKER                    // the checker's part: the tests
//   namespace tests { static void book_input(grader::Test& t) { ... cross_attention(...) ... } ... }
//   int main(int argc, char** argv) {
//       using namespace tests;
//       return grader::run(argc, argv, GRADER_LESSON(lesson_main), { grader::compare(...), ... });
//   }
//   #endif
//
// Inside namespace tests, cross_attention is a proxy: the reference's while
// the reference's numbers are made, a call in the student's process otherwise.
// The part above "#ifdef GRADER_CHECKER" is built into both; whatever it
// defines that calls the student's code (an adapter giving pointer arguments
// their buffers) must be listed in STUDENT_FUNCTIONS itself.
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

#include "wire.hpp"

namespace grader {
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
}  // namespace grader
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
#include "driver.hpp"
#endif
