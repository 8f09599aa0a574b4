// tests/grader/checker.hpp: the grader's side, the only process that awards a point
// (tests/grader/README.md, "How a grading runs"), in four headers: process.hpp runs the student's
// process, call.hpp calls its functions, test.hpp is what the tests are written in, run.hpp runs them.
#pragma once

#include "call.hpp"
#include "run.hpp"
#include "test.hpp"
