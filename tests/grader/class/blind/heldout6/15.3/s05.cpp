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

namespace {

using KeyVec = std::array<float, D_K>;
using ValVec = std::array<float, D_V>;

// d(loss)/d(logits) for softmax followed by -log p[target], scaled by the example's weight
std::vector<float> logit_grad(const Matrix& probs, int target, float w) {
    std::vector<float> g(probs.data);
    g[target] -= 1.0f;
    for (float& x : g) x *= w;
    return g;
}

// gradient of a softmax's input, given its output a and the gradient at its output da
std::vector<float> softmax_grad(const float* a, const std::vector<float>& da) {
    float inner = 0.0f;
    for (size_t j = 0; j < da.size(); ++j) inner += a[j] * da[j];
    std::vector<float> out(da.size());
    for (size_t j = 0; j < da.size(); ++j) out[j] = a[j] * (da[j] - inner);
    return out;
}

// y = x W for one row x: W gets x^T dy, and x's gradient (d x += dy W^T) goes into dx
template <size_t N>
void linear_back(const float* x, const std::array<float, N>& dy, const Matrix& W, Matrix& dW, float* dx) {
    for (int r = 0; r < W.rows; ++r) {
        for (size_t c = 0; c < N; ++c) {
            dW(r, int(c)) += x[r] * dy[c];
            dx[r] += dy[c] * W(r, int(c));
        }
    }
}

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    if (loss_weight == 0.0f) return;  // nothing to add
    const int T = int(tokens.size());
    const float scale_by = 1.0f / std::sqrt(float(D_K));

    const std::vector<float> dlogits = logit_grad(f.probs, target, loss_weight);
    ValVec dz{};
    for (int i = 0; i < p.bias.cols; ++i) {
        grad.bias(0, i) += dlogits[i];
        for (int r = 0; r < D_V; ++r) {
            grad.W_out(r, i) += f.z(0, r) * dlogits[i];
            dz[r] += dlogits[i] * p.W_out(r, i);
        }
    }

    std::vector<float> dweights(T);
    for (int j = 0; j < T; ++j) dweights[j] = dot(dz.data(), f.V.row(j), D_V);
    const std::vector<float> dscores = softmax_grad(f.weights.row(0), dweights);

    KeyVec dq{};
    for (int j = 0; j < T; ++j) {
        KeyVec dk;
        ValVec dv;
        for (int c = 0; c < D_K; ++c) {
            dk[c] = dscores[j] * scale_by * f.q(0, c);
            dq[c] += dscores[j] * scale_by * f.K(j, c);
        }
        for (int c = 0; c < D_V; ++c) dv[c] = f.weights(0, j) * dz[c];
        float* erow = grad.embeddings.row(tokens[j]);
        linear_back(f.X.row(j), dk, p.W_K, grad.W_K, erow);
        linear_back(f.X.row(j), dv, p.W_V, grad.W_V, erow);
    }
    linear_back(f.X.row(T - 1), dq, p.W_Q, grad.W_Q, grad.embeddings.row(tokens[T - 1]));
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
