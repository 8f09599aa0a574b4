// ex3_Colour_Backward.cpp: exercise 15.3, the colour-recall model's backward pass.
// Book section: 15.2.3 (exercise 15.3)
// Exercise: 15.3
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void backward(const Params& p, const std::vector<int>& tokens, const Forward& f,
//                 int target, float loss_weight, Params& grad);
//
// f is what forward(p, tokens) computed for one prefix (colour_recall.hpp:
// X, q, K, V, scores, weights, z, logits, probs). Add into grad, block by block
// (embeddings, W_Q, W_K, W_V, W_out, bias), the gradient of
// loss_weight * -log probs[target] with respect to every parameter. Add, do not
// overwrite: the training loop sums the gradients of several prefixes in one grad.
// Undo the forward steps last first: the logits (z W_out + bias), the mix of the
// values, the softmax of the scores, the scores q . k_j / sqrt(D_K), then the
// three projections and the embedding rows they read. A token that occurs at
// several positions collects the gradient of each.
//
// main checks your gradient of the mean loss over the nine training prefixes
// against finite differences, block by block.
#include <cmath>
#include <cstdio>
#include <vector>

#include "colour_recall.hpp"

// Your backward goes here. In the repository it is colour_recall.hpp's own, which
// this file then uses; in the handout the header only declares it.
#include <array>

using VecK = std::array<float, D_K>;
using VecV = std::array<float, D_V>;
using VecD = std::array<float, D>;

// x (len n) times M^T, M (D x n): one number per row of M
template <size_t N>
static VecD backThrough(const std::array<float, N>& x, const Matrix& M) {
    VecD out{};
    for (int r = 0; r < D; r++)
        for (size_t c = 0; c < N; c++) out[r] += x[c] * M(r, int(c));
    return out;
}

// M (D x n) += x^T y
template <size_t N>
static void addOuter(Matrix& M, const float* x, const std::array<float, N>& y) {
    for (int r = 0; r < D; r++)
        for (size_t c = 0; c < N; c++) M(r, int(c)) += x[r] * y[c];
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int T = int(tokens.size());
    const float scale = 1.0f / std::sqrt(float(D_K));
    VecV dz{};
    for (int i = 0; i < p.bias.cols; i++) {
        const float dl = loss_weight * (f.probs(0, i) - float(i == target));
        grad.bias(0, i) += dl;
        for (int r = 0; r < D_V; r++) {
            grad.W_out(r, i) += f.z(0, r) * dl;
            dz[r] += dl * p.W_out(r, i);
        }
    }
    std::vector<float> da(T);
    float mean = 0.0f;
    for (int j = 0; j < T; j++) {
        da[j] = dot(dz.data(), f.V.row(j), D_V);
        mean += da[j] * f.weights(0, j);
    }
    VecK dq{};
    for (int j = 0; j < T; j++) {
        const float a = f.weights(0, j);
        const float ds = a * (da[j] - mean) * scale;
        VecK dk;
        VecV dv;
        for (int c = 0; c < D_K; c++) {
            dk[c] = ds * f.q(0, c);
            dq[c] += ds * f.K(j, c);
        }
        for (int c = 0; c < D_V; c++) dv[c] = a * dz[c];
        addOuter(grad.W_K, f.X.row(j), dk);
        addOuter(grad.W_V, f.X.row(j), dv);
        const VecD e1 = backThrough(dk, p.W_K), e2 = backThrough(dv, p.W_V);
        for (int r = 0; r < D; r++) grad.embeddings(tokens[j], r) += e1[r] + e2[r];
    }
    addOuter(grad.W_Q, f.X.row(T - 1), dq);
    const VecD e3 = backThrough(dq, p.W_Q);
    for (int r = 0; r < D; r++) grad.embeddings(tokens[T - 1], r) += e3[r];
}

// ---------------------------------------------------------------------------
// The lesson: your gradient of the mean training loss against finite differences.

constexpr float STEP = 1e-2f;       // large enough that float rounding in the loss stays small
constexpr double TOLERANCE = 0.05;  // of the block's largest gradient entry; a wrong sign gives 2

int main() {
    // A start three times as wide as the default, so that the attention row is not uniform
    // and every block's gradient is large enough to measure in float.
    Params p = random_start(DEFAULT_SEED, VOCAB, 3 * INIT_SCALE);
    const std::vector<Example> examples = training_examples();
    Params grad;
    for (const Example& e : examples)
        backward(p, e.tokens, forward(p, e.tokens), e.target, 1.0f / float(examples.size()), grad);

    std::printf("The mean loss over the %d training prefixes: %.4f\n\n", int(examples.size()), mean_loss(p, examples));
    std::printf("  block       largest |gradient|  largest error / largest gradient  matches\n");
    int matching = 0;
    for (int b = 0; b < 6; b++) {
        Matrix& A = *p.blocks()[b];
        const Matrix& G = *grad.blocks()[b];
        double biggest = 0.0, worst = 0.0;
        std::vector<double> numeric(A.data.size());
        for (size_t i = 0; i < A.data.size(); i++) {
            const float kept = A.data[i];
            A.data[i] = kept + STEP;
            const double up = mean_loss(p, examples);
            A.data[i] = kept - STEP;
            const double down = mean_loss(p, examples);
            A.data[i] = kept;
            numeric[i] = (up - down) / (2.0 * STEP);
            biggest = std::fmax(biggest, std::fabs(numeric[i]));
        }
        for (size_t i = 0; i < A.data.size(); i++) worst = std::fmax(worst, std::fabs(G.data[i] - numeric[i]));
        const bool ok = biggest > 0 && worst / biggest < TOLERANCE;
        matching += ok;
        std::printf("  %-10s  %18.3e  %32s  %s\n", BLOCK_NAMES[b], biggest,
                    worst / biggest < 0.01 ? "below 0.01"
                    : ok                   ? "below 0.05"
                                           : "above 0.05",
                    ok ? "yes" : "no");
    }
    std::printf("\n%d of 6 blocks match finite differences (step %g, tolerance %g of the block's largest entry)\n",
                matching, double(STEP), TOLERANCE);
    return 0;
}
