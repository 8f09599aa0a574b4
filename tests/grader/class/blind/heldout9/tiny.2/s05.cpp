#include <cmath>
#include <cstdio>
#include <vector>

#include "tiny_model.hpp"

using Mat = Matrix;

// column block `part` of head h, one letter at a time
static Mat gather(const float* src, size_t stride, size_t part, int h, int T) {
    Mat M(T, SIZE);
    size_t t = 0;
    while (t < size_t(T)) {
        size_t i = 0;
        while (i < size_t(SIZE)) {
            M(int(t), int(i)) = src[t * stride + part * WIDTH + size_t(h) * SIZE + i];
            ++i;
        }
        ++t;
    }
    return M;
}

static void scatter_add(float* dst, const Mat& G, size_t part, int h, int T) {
    for (int t = 0; t < T; t++)
        for (int i = 0; i < SIZE; i++) dst[t * 3 * WIDTH + part * WIDTH + h * SIZE + i] += G(t, i);
}

void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                     int T) {
    int h = 0;
    while (h < HEADS) {
        Mat A(T, T);
        for (int t = 0; t < T; t++)
            for (int s = 0; s <= t; s++) A(t, s) = weights[(h * T + t) * T + s];
        const Mat G = gather(dfound, WIDTH, 0, h, T);
        const Mat gradA = matmul(G, transpose(gather(lookups, 3 * WIDTH, 2, h, T)));
        Mat gradS(T, T);
        for (int t = 0; t < T; t++) {
            const float mean = dot(A.row(t), gradA.row(t), T);
            for (int s = 0; s <= t; s++) gradS(t, s) = A(t, s) * (gradA(t, s) - mean);
        }
        gradS = scale(gradS, 1.0f / std::sqrt(float(SIZE)));
        scatter_add(dlookups, matmul(transpose(A), G), 2, h, T);
        scatter_add(dlookups, matmul(transpose(gradS), gather(lookups, 3 * WIDTH, 0, h, T)), 1, h, T);
        scatter_add(dlookups, matmul(gradS, gather(lookups, 3 * WIDTH, 1, h, T)), 0, h, T);
        h++;
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
