// tests/grader/15.4.cpp: the tests of exercise 15.4 (chapter15/exercises/ex4_Adam_Step.cpp),
// adam_step against the reference solution's on random gradients.
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(adam_step)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// Several updates in a row with random gradients of random sizes: parameters, m and v after each.
// At least five: one update alone is lr against the gradient's sign, which sign-SGD also does.
static void hidden_steps(Test& t) {
    const int n = t.size(1, 40), steps = t.size(5, 30);
    const float lr = t.uniform(0.001f, 0.1f);
    std::vector<float> params = t.vector(n, -2.0f, 2.0f), m(size_t(n), 0.0f), v(size_t(n), 0.0f);
    for (int step = 1; step <= steps; step++) {
        std::vector<float> grads = t.vector(n, -1.0f, 1.0f);
        for (float& g : grads) g *= float(exp_d(2.302585092994046 * t.uniform(-3.0f, 2.0f)));  // sizes from 1e-3 to 1e2
        adam_step(params, grads, m, v, step, lr);
        t.numbers(("params_" + std::to_string(step)).c_str(), params);
        t.numbers(("m_" + std::to_string(step)).c_str(), m);
        t.numbers(("v_" + std::to_string(step)).c_str(), v);
    }
    // The same run at every seed: a gradient that is always 0 (eps keeps 0 / 0
    // away), one near 1e-8, one of 100, one whose sign flips every update.
    std::vector<float> fixed = {0.5f, -1.0f, 2.0f, 0.0f}, fixed_m(4, 0.0f), fixed_v(4, 0.0f);
    for (int step = 1; step <= 6; step++) {
        const float flip = step % 2 ? 1.0f : -1.0f;
        adam_step(fixed, {0.0f, 1e-8f, 100.0f, flip * 0.5f}, fixed_m, fixed_v, step, 0.01f);
        t.numbers(("fixed_params_" + std::to_string(step)).c_str(), fixed);
        t.numbers(("fixed_m_" + std::to_string(step)).c_str(), fixed_m);
        t.numbers(("fixed_v_" + std::to_string(step)).c_str(), fixed_v);
    }
}

// The first update from m = v = 0 moves every parameter by lr against its gradient's sign.
static void first_step_is_lr(Test& t) {
    const int n = t.size(1, 20);
    const float lr = t.uniform(0.001f, 0.1f);
    std::vector<float> params = t.vector(n, -2.0f, 2.0f), grads = t.vector(n, -1.0f, 1.0f), m(size_t(n), 0.0f),
                       v(size_t(n), 0.0f);
    for (float& g : grads) g = (g < 0 ? -1.0f : 1.0f) * float(exp_d(2.302585092994046 * t.uniform(-3.0f, 3.0f)));
    const std::vector<float> before = params;
    adam_step(params, grads, m, v, 1, lr);
    for (int i = 0; i < n; i++) {
        const float moved = params[i] - before[i], want = grads[i] > 0 ? -lr : lr;
        t.expect(std::fabs(moved - want) < 1e-3f * lr,
                 "gradient %g at lr %g: the first update moved the parameter "
                 "by %g, but Adam's first step is %g whatever the gradient's size",
                 double(grads[i]), double(lr), double(moved), double(want));
    }
    // The same check at every seed, at the ends of the drawn sizes: a gradient of
    // 1e-3 moves by lr too only when eps is added after the square root.
    std::vector<float> fixed = {0.5f, -0.5f, 1.0f, -1.0f}, fixed_m(4, 0.0f), fixed_v(4, 0.0f);
    const std::vector<float> fixed_grads = {1e-3f, -1e-3f, 1e3f, -1e3f};
    adam_step(fixed, fixed_grads, fixed_m, fixed_v, 1, 0.01f);
    const float starts[4] = {0.5f, -0.5f, 1.0f, -1.0f};
    for (int i = 0; i < 4; i++) {
        const float moved = fixed[size_t(i)] - starts[i], want = fixed_grads[size_t(i)] > 0 ? -0.01f : 0.01f;
        t.expect(std::fabs(moved - want) < 1e-3f * 0.01f,
                 "gradient %g at lr 0.01: the first update moved the "
                 "parameter by %g, but Adam's first step is %g whatever the gradient's size",
                 double(fixed_grads[size_t(i)]), double(moved), double(want));
    }
}

// Gradients near 1e-8: eps, added to the square root, is what keeps these steps small.
static void tiny_gradients(Test& t) {
    const int n = t.size(1, 20);
    std::vector<float> params = t.vector(n, -1.0f, 1.0f), m(size_t(n), 0.0f), v(size_t(n), 0.0f);
    for (int step = 1; step <= 5; step++) {
        std::vector<float> grads = t.vector(n, -3e-8f, 3e-8f);
        adam_step(params, grads, m, v, step, 0.01f);
        t.numbers(("params_" + std::to_string(step)).c_str(), params);
    }
}

// Many updates with gradients that keep their sign but not their size (each
// entry's own mean, times a factor from 0.2 to 1.8 drawn anew each update): the
// corrections fade, and the step settles at lr * mean / root mean square, about
// 0.9 lr here, not lr (sign-SGD's step).
static void long_run(Test& t) {
    const int n = t.size(1, 10);
    std::vector<float> params = t.vector(n, -1.0f, 1.0f), base = t.vector(n, 0.1f, 1.0f), m(size_t(n), 0.0f),
                       v(size_t(n), 0.0f);
    for (float& b : base) b *= t.uniform(0.0f, 1.0f) < 0.5f ? -1.0f : 1.0f;  // means of 0.1 to 1 in size, either sign
    for (int step = 1; step <= 2000; step++) {
        std::vector<float> grads = t.vector(n, 0.2f, 1.8f);
        for (int i = 0; i < n; i++) grads[size_t(i)] *= base[size_t(i)];
        adam_step(params, grads, m, v, step, 0.001f);
    }
    t.numbers("params", params);
    t.numbers("m", m);
    t.numbers("v", v);
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("first_step_is_lr", 1, first_step_is_lr,
                             "after one update m and v have only a tenth and a thousandth of the gradient: divide each "
                             "by 1 - beta^step to correct for their start at zero"),
            grader::compare("hidden_steps", 5, 1e-4, hidden_steps,
                            "check beta1 = 0.9 and beta2 = 0.999, which of m and v takes the square, and that m and v "
                            "keep their values from one call to the next"),
            grader::compare("tiny_gradients", 1, 1e-4, tiny_gradients,
                            "eps = 1e-8 is added to the square root of the corrected v, not inside it"),
            grader::compare("long_run", 2, 1e-4, long_run,
                            "step counts from 1, and the corrections use beta to the power step"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
