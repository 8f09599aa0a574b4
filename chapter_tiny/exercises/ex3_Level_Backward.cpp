// ex3_Level_Backward.cpp: exercise tiny.3, level's backward pass.
// Book section: tiny.3 (exercise tiny.3)
// Exercise: tiny.3
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void level_backward(float* din, float* dgain, float* dbias, const float* dout, const float* in,
//                       const float* mean, const float* rstd, const float* gain, int T);
//
// level (tiny_model.hpp's level_forward) takes each of T rows of WIDTH numbers,
// in (T x WIDTH), to mean 0 and spread 1, then times gain plus bias:
//   norm[i] = (in[i] - mean) * rstd,  out[i] = norm[i] * gain[i] + bias[i],
// where mean and rstd (one per row, 1 / the row's standard deviation) are what the
// forward pass kept. Given dout (T x WIDTH), what the loss says about each out,
// add into din (T x WIDTH), dgain (WIDTH) and dbias (WIDTH) what it says about the
// inputs, the gains and the biases. Add, do not overwrite. Every input of a row
// moves that row's mean and spread, so each din of a row depends on the whole row
// of dout, not only on its own entry. Work the gradient out (the chain rule
// through the mean and the spread): the grader also calls it on 524,288 rows at
// once, where differencing a forward pass takes hundreds of times longer than
// the analytic pass, and more than the time limit.
//
// main then checks your gradients against finite differences.
#include <cmath>
#include <cstdio>
#include <vector>

#include "../tiny_model.hpp"

// Your level_backward goes here. In the repository it is tiny_model.hpp's own,
// which this file then uses; in the handout the header only declares it.
// BEGIN SOLUTION: write level_backward (the statement above says what it adds into din, dgain and dbias)
// STUB: void level_backward(float* din, float* dgain, float* dbias, const float* dout, const float* in,
// STUB:                     const float* mean, const float* rstd, const float* gain, int T) {
// STUB:     (void)din, (void)dgain, (void)dbias, (void)dout, (void)in, (void)mean, (void)rstd, (void)gain, (void)T;
// STUB: }
// END SOLUTION

// ---------------------------------------------------------------------------
// The lesson: loss = sum of out times fixed random numbers, your gradients
// against central finite differences through tiny_model.hpp's level_forward.

constexpr int ROWS = 3;
constexpr float STEP = 1e-2f;
constexpr double TOLERANCE = 0.05;  // of the part's largest gradient entry; a wrong sign gives 2

struct Level {
    std::vector<float> in, gain, bias, direction;  // (T x W), (W), (W), (T x W)
    float loss() const {
        std::vector<float> out(in.size()), mean(ROWS), rstd(ROWS);
        level_forward(out.data(), mean.data(), rstd.data(), in.data(), gain.data(), bias.data(), ROWS);
        float total = 0.0f;
        for (size_t i = 0; i < out.size(); i++) total += out[i] * direction[i];
        return total;
    }
};

// The largest |numeric gradient| of part, and whether analytic matches it.
static bool matches(Level& level, std::vector<float>& part, const std::vector<float>& analytic, double& biggest) {
    double worst = 0.0;
    biggest = 0.0;
    for (size_t i = 0; i < part.size(); i++) {
        const float kept = part[i];
        part[i] = kept + STEP;
        const double up = level.loss();
        part[i] = kept - STEP;
        const double down = level.loss();
        part[i] = kept;
        const double numeric = (up - down) / (2.0 * STEP);
        biggest = std::fmax(biggest, std::fabs(numeric));
        worst = std::fmax(worst, std::fabs(numeric - analytic[i]));
    }
    return biggest > 0 && worst / biggest < TOLERANCE;
}

int main() {
    Rng rng(1);
    Level level{std::vector<float>(ROWS * WIDTH), std::vector<float>(WIDTH), std::vector<float>(WIDTH),
                std::vector<float>(ROWS * WIDTH)};
    for (int t = 0; t < ROWS; t++)  // rows with different means and spreads
        for (int i = 0; i < WIDTH; i++) level.in[t * WIDTH + i] = float(t) + float(t + 1) * rng.normal();
    for (float& g : level.gain) g = 1.0f + 0.5f * rng.normal();
    for (float& b : level.bias) b = 0.1f * rng.normal();
    for (float& d : level.direction) d = rng.normal();

    std::vector<float> out(ROWS * WIDTH), mean(ROWS), rstd(ROWS);
    level_forward(out.data(), mean.data(), rstd.data(), level.in.data(), level.gain.data(), level.bias.data(), ROWS);
    std::vector<float> din(ROWS * WIDTH, 0.0f), dgain(WIDTH, 0.0f), dbias(WIDTH, 0.0f);
    level_backward(din.data(), dgain.data(), dbias.data(), level.direction.data(), level.in.data(), mean.data(),
                   rstd.data(), level.gain.data(), ROWS);

    std::printf("level on %d rows of %d numbers (means about 0, 1, 2; spreads about 1, 2, 3)\n", ROWS, WIDTH);
    std::printf("loss = sum of out times fixed random numbers = %.4f\n\n", level.loss());
    std::printf("  part    largest |gradient|  matches finite differences\n");
    double biggest;
    bool ok = matches(level, level.in, din, biggest);
    std::printf("  in      %18.3f  %s\n", biggest, ok ? "yes" : "no");
    ok = matches(level, level.gain, dgain, biggest);
    std::printf("  gain    %18.3f  %s\n", biggest, ok ? "yes" : "no");
    ok = matches(level, level.bias, dbias, biggest);
    std::printf("  bias    %18.3f  %s\n", biggest, ok ? "yes" : "no");
    for (int t = 0; t < ROWS; t++) {
        float sum = 0.0f;
        for (int i = 0; i < WIDTH; i++) sum += din[t * WIDTH + i];
        std::printf("\nRow %d's input gradients add up to %.4f: moving a whole row together changes nothing", t + 1,
                    std::fabs(sum) < 5e-4f ? 0.0f : sum);
    }
    std::printf("\n");
    return 0;
}
