// ex1_Attend.cpp: exercise tiny.1, attend_forward as the chapter's code.
// Book section: tiny.3 (exercise tiny.1)
// Exercise: tiny.1
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void attend_forward(float* found, float* weights, const float* lookups, int T);
//
// lookups holds T letters' rows of 3 * WIDTH numbers: the letter's query in
// numbers [0, WIDTH), its key in [WIDTH, 2 WIDTH), its value in [2 WIDTH, 3 WIDTH).
// There are HEADS heads, and head h reads its own SIZE numbers of each part,
// starting at h * SIZE (tiny_model.hpp names WIDTH = 32, HEADS = 4, SIZE = 8).
// For each letter t and head h: score every letter s from 0 to t (never a later
// one) with the dot product of t's query and s's key, times 1 / sqrt(SIZE); turn
// the scores into weights with softmax; and add up s's values, each times its
// weight. Subtract the row's largest score from every score before exp: the
// grader's scores reach the hundreds, where exp of a raw score overflows a float
// (or, far below 0, gives 0 for every s) and the weights come out NaN. Write
//   found   (T x WIDTH): head h's sum into numbers [h * SIZE, (h + 1) * SIZE) of row t;
//   weights (HEADS x T x T): weights[(h * T + t) * T + s], 0 wherever s > t.
// Fill every entry of both: the grader hands you buffers that hold rubbish.
//
// main then runs your attend_forward on what the trained model's first block looks up
// for the chapter's sentence, and prints where its four heads look.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tiny_checkpoint.hpp"  // load_model, encode
#include "tiny_model.hpp"

// Your attend_forward goes here. In the repository it is tiny_model.hpp's own,
// which this file then uses; in the handout the header only declares it.
// attend_forward: scaled dot-product attention with a causal mask
void attend_forward(float* found, float* weights, const float* lookups, int T) {
    float d_scale = 1.0f / std::sqrt((float)WIDTH);  // scale by the model width
    for (int t = 0; t < T; t++) {
        for (int head = 0; head < HEADS; head++) {
            int off = head * SIZE;
            float* att = weights + head * T * T + t * T;
            float maxv = -1e30f;
            for (int s = 0; s < T; s++) {
                if (s > t) {
                    att[s] = 0.0f;
                    continue;
                }
                float sc = 0.0f;
                for (int i = 0; i < SIZE; i++) sc += lookups[t * 3 * WIDTH + off + i] * lookups[s * 3 * WIDTH + WIDTH + off + i];
                att[s] = sc * d_scale;
                if (att[s] > maxv) maxv = att[s];
            }
            float total = 0.0f;
            for (int s = 0; s <= t; s++) {
                att[s] = std::exp(att[s] - maxv);
                total += att[s];
            }
            for (int s = 0; s <= t; s++) att[s] = att[s] / total;
            for (int i = 0; i < SIZE; i++) {
                float v = 0.0f;
                for (int s = 0; s <= t; s++) v += att[s] * lookups[s * 3 * WIDTH + 2 * WIDTH + off + i];
                found[t * WIDTH + off + i] = v;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The lesson: the first block of the trained model, read by your attend_forward.

const char* const SENTENCE = "The bag didn't fit in the car because it was too small";

int main() {
    TinyModel model = load_model("chapter_tiny/shakespeare.tiny");
    const std::vector<int> ids = encode(model, SENTENCE);
    const int T = int(ids.size());
    Tape tape(model.V);
    forward(model, ids.data(), T, tape);  // the first block's lookups need nothing from attend_forward

    std::vector<float> found(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);  // (T x W), (HEADS x T x T)
    attend_forward(found.data(), weights.data(), tape.block[0].lookups, T);

    std::printf("Your attend on the first block's lookups for \"%s\" (%d letters)\n\n", SENTENCE, T);
    bool above_zero = true, rows_one = true;
    for (int h = 0; h < HEADS; h++)
        for (int t = 0; t < T; t++) {
            float sum = 0.0f;
            for (int s = 0; s < T; s++) {
                const float w = weights[(h * T + t) * T + s];
                if (s > t) above_zero = above_zero && w == 0.0f;
                sum += w;
            }
            rows_one = rows_one && std::fabs(sum - 1.0f) < 1e-5f;
        }
    std::printf("Nothing above the diagonal: %s; every row adds up to 1: %s\n\n", above_zero ? "yes" : "no",
                rows_one ? "yes" : "no");

    std::printf("  head  previous letter biggest  share on itself and the two before\n");
    for (int h = 0; h < HEADS; h++) {
        int previous = 0;
        float near = 0.0f;
        for (int t = 1; t < T; t++) {
            const float* row = weights.data() + (h * T + t) * T;
            int best = 0;
            for (int s = 1; s <= t; s++)
                if (row[s] > row[best]) best = s;
            previous += best == t - 1;
            for (int s = t >= 2 ? t - 2 : 0; s <= t; s++) near += row[s];
        }
        std::printf("  %4d  %10d of %d  %33.1f%%\n", h + 1, previous, T - 1, 100.0f * near / float(T - 1));
    }
    const int last = T - 1;
    std::printf("\nWhat letter %d ('%c') finds with head 1, its first 4 numbers:", last, SENTENCE[last]);
    for (int i = 0; i < 4; i++) std::printf(" %+.4f", found[size_t(last) * WIDTH + i]);
    std::printf("\n");
    return 0;
}
