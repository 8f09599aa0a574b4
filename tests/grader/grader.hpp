// tests/grader/grader.hpp: what an exercise's tests file (tests/grader/<id>.cpp)
// includes; the README's "The tests file" shows one. grade.sh builds the file
// twice: as the student's DRIVER (driver.hpp), from the student's file and the
// handout's headers, in the sandbox, which runs the student's functions when
// asked and decides nothing; and with -DGRADER_CHECKER as the CHECKER
// (checker.hpp), from the reference and the full headers, which makes the
// inputs, calls the student's functions in the driver's process and the
// reference's in its own, and awards the points. The part of the tests file
// above "#ifdef GRADER_CHECKER" is built into both.
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
