// ex2_Attend_Backward.cpp: exercise tiny.2, attend's backward pass.
// Book section: tiny.3 (exercise tiny.2)
// Exercise: tiny.2
// Builds on: tiny.1
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void attend_backward(float* dlookups, const float* dfound, const float* weights,
//                        const float* lookups, int T);
//
// attend_forward (tiny_model.hpp's, exercise tiny.1) made found (T x WIDTH)
// and weights (HEADS x T x T) from lookups (T x 3 WIDTH). Given dfound, what the
// loss says about each number of found, add into dlookups (T x 3 WIDTH) what it
// says about each query, key and value. Add, do not overwrite. Go back through
// attend's steps for each letter t and head h, last first: the sum of the values
// (each value gets weight times dfound; each weight gets dfound . value), the
// softmax (a score's gradient is its weight times its weight's gradient minus the
// row's weighted mean of those gradients), and the scores (query . key / sqrt(SIZE):
// the query collects every key, each key the query, both times that score's
// gradient and 1 / sqrt(SIZE)). Only s <= t was scored: nothing flows to later letters.
//
// main then checks your gradient against finite differences on random lookups.
#include <cmath>
#include <cstdio>
#include <vector>

#include "tiny_model.hpp"

// Your attend_backward goes here. In the repository it is tiny_model.hpp's own,
// which this file then uses; in the handout the header only declares it.
void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups, int T)
{
    const float sc = 1.0f / std::sqrt(float(SIZE));
    float gw[SEATS];
    for (int a = 0; a < T; a++)
    {
        for (int hh = 0; hh < HEADS; hh++)
        {
            const float* w = weights + (hh * T + a) * T;
            const float* g = dfound + a * WIDTH + hh * SIZE;
            for (int b = 0; b <= a; b++)
            {
                const float* v = lookups + b * 3 * WIDTH + 2 * WIDTH + hh * SIZE;
                float* dv = dlookups + b * 3 * WIDTH + 2 * WIDTH + hh * SIZE;
                for (int c = 0; c < SIZE; c++) dv[c] += w[b] * g[c];
                float d = 0.0f;
                for (int c = 0; c < SIZE; c++) d += g[c] * v[c];
                gw[b] = d;
            }
            float m = 0.0f;
            for (int b = 0; b <= a; b++) m += w[b] * gw[b];
            const float* q = lookups + a * 3 * WIDTH + hh * SIZE;
            float* dq = dlookups + a * 3 * WIDTH + hh * SIZE;
            for (int b = 0; b <= a; b++)
            {
                const float gs = w[b] * (gw[b] - m) * sc;
                const float* k = lookups + b * 3 * WIDTH + WIDTH + hh * SIZE;
                float* dk = dlookups + b * 3 * WIDTH + WIDTH + hh * SIZE;
                for (int c = 0; c < SIZE; c++) dq[c] += gs * k[c];
                for (int c = 0; c < SIZE; c++) dk[c] += gs * q[c];
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The lesson: your gradient of loss = sum of found times fixed random numbers,
// against central finite differences through tiny_model.hpp's attend_forward.

constexpr int LETTERS = 6;
constexpr float STEP = 1e-2f;
constexpr double TOLERANCE = 0.05;  // of the part's largest gradient entry; a wrong sign gives 2

static float loss_of(const std::vector<float>& lookups, const std::vector<float>& direction) {
    std::vector<float> found(size_t(LETTERS) * WIDTH), weights(size_t(HEADS) * LETTERS * LETTERS);
    attend_forward(found.data(), weights.data(), lookups.data(), LETTERS);
    float loss = 0.0f;
    for (size_t i = 0; i < found.size(); i++) loss += found[i] * direction[i];
    return loss;
}

int main() {
    Rng rng(1);
    std::vector<float> lookups(size_t(LETTERS) * 3 * WIDTH), direction(size_t(LETTERS) * WIDTH);  // (T x 3W), (T x W)
    for (float& x : lookups) x = rng.normal();
    for (float& x : direction) x = rng.normal();
    std::vector<float> found(size_t(LETTERS) * WIDTH), weights(size_t(HEADS) * LETTERS * LETTERS);
    attend_forward(found.data(), weights.data(), lookups.data(), LETTERS);
    std::vector<float> dlookups(lookups.size(), 0.0f);
    attend_backward(dlookups.data(), direction.data(), weights.data(), lookups.data(), LETTERS);

    std::printf("%d letters of random lookups; loss = sum of found times fixed random numbers = %.4f\n\n", LETTERS,
                loss_of(lookups, direction));
    std::printf("  part     largest |gradient|  matches finite differences\n");
    const char* parts[3] = {"queries", "keys", "values"};
    for (int part = 0; part < 3; part++) {
        double biggest = 0.0, worst = 0.0;
        for (int t = 0; t < LETTERS; t++)
            for (int i = 0; i < WIDTH; i++) {
                const size_t at = size_t(t) * 3 * WIDTH + part * WIDTH + i;
                const float kept = lookups[at];
                lookups[at] = kept + STEP;
                const double up = loss_of(lookups, direction);
                lookups[at] = kept - STEP;
                const double down = loss_of(lookups, direction);
                lookups[at] = kept;
                const double numeric = (up - down) / (2.0 * STEP);
                biggest = std::fmax(biggest, std::fabs(numeric));
                worst = std::fmax(worst, std::fabs(numeric - dlookups[at]));
            }
        std::printf("  %-7s  %18.3f  %s\n", parts[part], biggest,
                    biggest > 0 && worst / biggest < TOLERANCE ? "yes" : "no");
    }
    float last_letter = 0.0f;  // the last letter's query is read by no one else, but its key and value are
    for (int i = 0; i < 3 * WIDTH; i++)
        last_letter = std::fmax(last_letter, std::fabs(dlookups[size_t(LETTERS - 1) * 3 * WIDTH + i]));
    std::printf("\nThe last letter's largest gradient: %.3f (only its own row reads its key and value)\n", last_letter);
    return 0;
}
