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
#include <numeric>

#define OFS(letter, part, head) ((letter) * 3 * WIDTH + (part) * WIDTH + (head) * SIZE)
typedef std::vector<float> Floats;

void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                     int T) {
    Floats grad_w(static_cast<size_t>(T), 0.0f), grad_s(static_cast<size_t>(T), 0.0f);
    const float k = 1.0f / std::sqrt(static_cast<float>(SIZE));
    int t = 0;
    while (t < T) {
        for (int h = 0; h < HEADS; ++h) {
            const float* att = weights + (h * T + t) * T;
            const float* up = dfound + t * WIDTH + h * SIZE;
            const int n = t + 1;
            int s;
            for (s = 0; s < n; ++s)
                grad_w[size_t(s)] = std::inner_product(up, up + SIZE, lookups + OFS(s, 2, h), 0.0f);
            const float centre = std::inner_product(att, att + n, grad_w.begin(), 0.0f);
            s = 0;
            while (s < n) {
                grad_s[size_t(s)] = att[s] * (grad_w[size_t(s)] - centre) * k;
                s++;
            }
            for (s = 0; s < n; ++s) {
                const float gs = grad_s[size_t(s)];
                for (int i = 0; i < SIZE; ++i) {
                    dlookups[OFS(t, 0, h) + i] += gs * lookups[OFS(s, 1, h) + i];
                    dlookups[OFS(s, 2, h) + i] += att[s] * up[i];
                    dlookups[OFS(s, 1, h) + i] += gs * lookups[OFS(t, 0, h) + i];
                }
            }
        }
        ++t;
    }
}
#undef OFS

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
