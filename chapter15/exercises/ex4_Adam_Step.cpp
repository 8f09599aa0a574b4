// ex4_Adam_Step.cpp: exercise 15.4, one Adam update as PyTorch makes it by default.
// Book section: 15.2.3 (exercise 15.4)
// Exercise: 15.4
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void adam_step(std::vector<float>& params, const std::vector<float>& grads,
//                  std::vector<float>& m, std::vector<float>& v, int step, float lr);
//
// One update of torch.optim.Adam(params, lr) with its defaults: beta1 = 0.9,
// beta2 = 0.999, eps = 1e-8, no weight decay. The four vectors have the same
// length; m and v are the running mean of the gradients and of their squares,
// zero before the first update, and step is this update's number (1 for the
// first). For each entry: move m and v toward the new gradient (and its square)
// by the betas, correct both for having started at zero (divide by
// 1 - beta^step), and move the parameter against the corrected mean, divided by
// the square root of the corrected mean square plus eps, times lr. PyTorch's
// documentation of torch.optim.Adam writes the same algorithm out.
//
// colour_recall.hpp gives BETA1, BETA2 and EPS, and its Adam runs your
// adam_step on each block of the model's parameters (exercise 15.5 trains with it).
//
// main then shows what makes Adam different from plain gradient descent, using
// your adam_step.
#include <cmath>
#include <cstdio>
#include <vector>

#include "../colour_recall.hpp"

// Your adam_step goes here. In the repository it is colour_recall.hpp's own, which
// this file then uses; in the handout the header only declares it.
// BEGIN SOLUTION: write adam_step (the statement above says what it does)
// STUB: void adam_step(std::vector<float>& params, const std::vector<float>& grads, std::vector<float>& m,
// STUB:                std::vector<float>& v, int step, float lr) {
// STUB:     (void)params, (void)grads, (void)m, (void)v, (void)step, (void)lr;
// STUB: }
// END SOLUTION

// ---------------------------------------------------------------------------
// The lesson

int main() {
    // Three parameters whose gradients differ by factors of a thousand.
    std::vector<float> params = {1.0f, 1.0f, 1.0f}, grads = {1000.0f, 1.0f, -0.001f};
    std::vector<float> m(3, 0.0f), v(3, 0.0f);
    adam_step(params, grads, m, v, 1, 0.03f);
    std::printf("First update at lr 0.03, gradients 1000, 1 and -0.001:\n");
    std::printf("  parameters  %.6f  %.6f  %.6f\n", params[0], params[1], params[2]);
    std::printf(
        "  each moved by lr against its gradient's sign, whatever its size: Adam sets a\n"
        "  step size for each parameter from the gradients it has seen (section 15.2.3)\n\n");

    // Minimise (x - 3)^2 from x = 0: the gradient is 2 (x - 3).
    std::vector<float> x = {0.0f}, mx = {0.0f}, vx = {0.0f};
    std::printf("Minimising (x - 3)^2 from x = 0 at lr 0.1:\n  update        x\n");
    for (int step = 1; step <= 200; step++) {
        std::vector<float> g = {2.0f * (x[0] - 3.0f)};
        adam_step(x, g, mx, vx, step, 0.1f);
        if (step <= 3 || step == 10 || step == 50 || step == 100 || step == 200)
            std::printf("  %6d  %7.4f\n", step, x[0]);
    }
    return 0;
}
