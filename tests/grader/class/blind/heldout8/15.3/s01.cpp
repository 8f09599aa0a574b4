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
// TODO: write backward (the statement above says what it adds into grad)
#include <algorithm>
#include <array>
#include <numeric>

namespace {
using KeyVec = std::array<float, D_K>;
using ValVec = std::array<float, D_V>;
using EmbVec = std::array<float, D>;

template <size_t N>
std::array<float, N> copy_row(const Matrix& m, int r) {
    std::array<float, N> out{};
    std::copy(m.row(r), m.row(r) + N, out.begin());
    return out;
}

// out += s * v
template <size_t N>
void axpy(std::array<float, N>& out, float s, const std::array<float, N>& v) {
    std::transform(v.begin(), v.end(), out.begin(), out.begin(), [s](float vi, float oi) { return oi + s * vi; });
}

// one row x through y = x W: W's gradient gets x^T dy, and the row's gradient is dy W^T
template <size_t N>
EmbVec through(const Matrix& W, const EmbVec& x, const std::array<float, N>& dy, Matrix& dW) {
    EmbVec dx{};
    for (size_t r = 0; r < D; ++r) {
        for (size_t c = 0; c < N; ++c) dW(int(r), int(c)) += x[r] * dy[c];
        dx[r] = std::inner_product(dy.begin(), dy.end(), W.row(int(r)), 0.0f);
    }
    return dx;
}
}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int T = static_cast<int>(tokens.size());
    const float r2 = 1.0f / std::sqrt(static_cast<float>(D_K));

    std::vector<float> dlog(f.probs.data);
    dlog[target] -= 1.0f;
    for (float& d : dlog) d *= loss_weight;

    ValVec dz{};
    for (int r = 0; r < D_V; ++r) {
        for (int v = 0; v < p.W_out.cols; ++v) grad.W_out(r, v) += f.z(0, r) * dlog[v];
        dz[r] = std::inner_product(dlog.begin(), dlog.end(), p.W_out.row(r), 0.0f);
    }
    std::transform(dlog.begin(), dlog.end(), grad.bias.data.begin(), grad.bias.data.begin(), std::plus<float>());

    std::vector<float> dw(T);
    for (int j = 0; j < T; ++j) dw[j] = std::inner_product(dz.begin(), dz.end(), f.V.row(j), 0.0f);
    const float centre = std::inner_product(dw.begin(), dw.end(), f.weights.row(0), 0.0f);

    const KeyVec q = copy_row<D_K>(f.q, 0);
    KeyVec dq{};
    for (int j = T - 1; j >= 0; --j) {
        const float a = f.weights(0, j);
        const float ds = a * (dw[j] - centre) * r2;
        axpy(dq, ds, copy_row<D_K>(f.K, j));

        KeyVec dk{};
        axpy(dk, ds, q);
        ValVec dv{};
        axpy(dv, a, dz);

        const EmbVec x = copy_row<D>(f.X, j);
        EmbVec dx = through(p.W_K, x, dk, grad.W_K);
        axpy(dx, 1.0f, through(p.W_V, x, dv, grad.W_V));
        float* e = grad.embeddings.row(tokens[j]);
        std::transform(dx.begin(), dx.end(), e, e, std::plus<float>());
    }

    const EmbVec dxq = through(p.W_Q, copy_row<D>(f.X, T - 1), dq, grad.W_Q);
    float* last = grad.embeddings.row(tokens[T - 1]);
    std::transform(dxq.begin(), dxq.end(), last, last, std::plus<float>());
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
