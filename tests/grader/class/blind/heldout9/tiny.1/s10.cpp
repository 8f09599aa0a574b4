#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tiny_checkpoint.hpp"  // load_model, encode
#include "tiny_model.hpp"

void attend_forward(float* found, float* weights, const float* lookups, int T) {
    const float f = 1.0f / std::sqrt(float(SIZE));
    const int stride = 3 * WIDTH;
    // lambdas: where a letter's part for one head begins
    auto part = [&](int n, int h, int which) { return lookups + n * stride + which * WIDTH + h * SIZE; };

    int cur = 0;
    while (cur < T) {
        for (int hh = 0; hh < HEADS; ++hh) {
            float* p = weights + (hh * T + cur) * T;
            const float* qq = part(cur, hh, 0);
            int o = 0;
            while (o <= cur) {
                const float* kk = part(o, hh, 1);
                float s = 0.0f;
                for (int d = 0; d < SIZE; ++d) s += qq[d] * kk[d];
                p[o] = s * f;
                ++o;
            }
            // softmax over 0..cur, the rest zero
            float top = p[0];
            for (o = 1; o <= cur; ++o) top = std::max(top, p[o]);
            float norm = 0.0f;
            for (o = 0; o <= cur; ++o) {
                p[o] = std::exp(p[o] - top);
                norm += p[o];
            }
            for (o = 0; o <= cur; ++o) p[o] = p[o] / norm;
            for (o = cur + 1; o < T; ++o) p[o] = 0.0f;

            std::vector<float> mix(SIZE, 0.0f);
            for (o = 0; o <= cur; ++o) {
                const float* vv = part(o, hh, 2);
                for (int d = 0; d < SIZE; ++d) mix[d] += p[o] * vv[d];
            }
            std::copy(mix.begin(), mix.end(), found + cur * WIDTH + hh * SIZE);
        }
        ++cur;
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
