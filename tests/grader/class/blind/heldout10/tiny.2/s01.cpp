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
// going back through attend: weighted values, softmax, scaled scores
void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups, int T)
{
    if (T < 1) return;
    const float one_over_root = 1.0f / std::sqrt(static_cast<float>(SIZE));
    std::vector<float> dAttn(static_cast<size_t>(T));
    for (int h = 0; h < HEADS; ++h)
    {
        for (int letter = T - 1; letter >= 0; --letter)
        {
            const float* grad_in = dfound + WIDTH * letter + SIZE * h;
            bool zero = true;
            for (int i = 0; i < SIZE && zero; ++i) zero = grad_in[i] == 0.0f;
            if (zero) continue;
            const float* attn = weights + T * (T * h + letter);
            const float* myQuery = lookups + 3 * WIDTH * letter + SIZE * h;
            float* myDQuery = dlookups + 3 * WIDTH * letter + SIZE * h;

            float avg = 0.0f;
            int s = letter;
            while (s >= 0)
            {
                const float* val = lookups + 3 * WIDTH * s + 2 * WIDTH + SIZE * h;
                float* dval = dlookups + 3 * WIDTH * s + 2 * WIDTH + SIZE * h;
                float g = 0.0f;
                for (int i = 0; i < SIZE; ++i)
                {
                    dval[i] += attn[s] * grad_in[i];
                    g += grad_in[i] * val[i];
                }
                dAttn[size_t(s)] = g;
                avg += attn[s] * g;
                --s;
            }
            for (s = letter; s >= 0; --s)
            {
                const float gScore = one_over_root * (attn[s] * (dAttn[size_t(s)] - avg));
                const float* key = lookups + 3 * WIDTH * s + WIDTH + SIZE * h;
                float* dkey = dlookups + 3 * WIDTH * s + WIDTH + SIZE * h;
                for (int i = 0; i < SIZE; ++i) myDQuery[i] += gScore * key[i];
                for (int i = 0; i < SIZE; ++i) dkey[i] += gScore * myQuery[i];
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
