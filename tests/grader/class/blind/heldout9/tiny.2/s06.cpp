#include <cmath>
#include <cstdio>
#include <vector>

#include "tiny_model.hpp"

namespace {
const float* slice(const float* base, int n, int part, int h) {
    return base + n * 3 * WIDTH + part * WIDTH + h * SIZE;
}
float* slice(float* base, int n, int part, int h) {
    return base + n * 3 * WIDTH + part * WIDTH + h * SIZE;
}

// back through found = sum_s a_s v_s for one (letter, head): values, and each weight's gradient
void back_values(float* dlookups, float* gw, const float* a, const float* g, const float* lookups, int t,
                 int h) {
    for (int s = 0; s <= t; s++) {
        float* dv = slice(dlookups, s, 2, h);
        int i = 0;
        while (i < SIZE) { dv[i] += a[s] * g[i]; ++i; }
        const float* v = slice(lookups, s, 2, h);
        float acc = 0.0f;
        for (i = 0; i < SIZE; i++) acc += g[i] * v[i];
        gw[s] = acc;
    }
}
}  // namespace

void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups, int T) {
    std::vector<float> gw(SEATS > T ? SEATS : T);
    for (int t = 0; t < T; t++) {
        int h = 0;
        while (h < HEADS) {
            const float* a = weights + (h * T + t) * T;
            back_values(dlookups, gw.data(), a, dfound + t * WIDTH + h * SIZE, lookups, t, h);
            float avg = 0.0f;
            for (int s = 0; s <= t; s++) avg += a[s] * gw[s];
            float* dq = slice(dlookups, t, 0, h);
            for (int s = 0; s <= t; s++) {
                const float gs = a[s] * (gw[s] - avg) * (1.0f / std::sqrt(float(SIZE)));
                float* dk = slice(dlookups, s, 1, h);
                const float* q = slice(lookups, t, 0, h);
                for (int i = 0; i < SIZE; i++) dk[i] += gs * q[i];
                const float* k = slice(lookups, s, 1, h);
                for (int i = 0; i < SIZE; i++) dq[i] += gs * k[i];
            }
            ++h;
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
