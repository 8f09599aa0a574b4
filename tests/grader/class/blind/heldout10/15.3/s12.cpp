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
#include <numeric>

namespace {

// d(loss)/d(logits) for softmax + cross-entropy, already weighted
std::vector<float> logit_grad(const Forward& f, int target, float w) {
    std::vector<float> out(f.probs.data);
    out[size_t(target)] -= 1.0f;
    for (auto& x : out) x *= w;
    return out;
}

// out += a * b^T, with a of length a_n, b of length b_n
void outer_add(Matrix& out, const float* a, const float* b) {
    for (int r = 0; r < out.rows; ++r)
        for (int c = 0; c < out.cols; ++c) out(r, c) += a[r] * b[c];
}

// y = W x for a row vector x of W's column count: y_r = sum_c W(r,c) x_c
std::vector<float> times_transpose(const Matrix& W, const float* x) {
    std::vector<float> y(size_t(W.rows), 0.0f);
    for (int r = 0; r < W.rows; ++r) y[size_t(r)] = dot(W.row(r), x, W.cols);
    return y;
}

std::vector<float> softmax_back(const Matrix& a, const std::vector<float>& da) {
    const int n = a.cols;
    const float s = std::inner_product(da.begin(), da.end(), a.row(0), 0.0f);
    std::vector<float> ds(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) ds[size_t(j)] = a(0, j) * (da[size_t(j)] - s);
    return ds;
}

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int T = static_cast<int>(tokens.size());

    std::vector<float> d_logits = logit_grad(f, target, loss_weight);
    for (int i = 0; i < grad.bias.cols; ++i) grad.bias(0, i) += d_logits[size_t(i)];
    outer_add(grad.W_out, f.z.row(0), d_logits.data());
    std::vector<float> d_z = times_transpose(p.W_out, d_logits.data());

    std::vector<float> d_a(static_cast<size_t>(T));
    for (int j = 0; j < T; ++j) d_a[size_t(j)] = dot(d_z.data(), f.V.row(j), D_V);
    std::vector<float> d_s = softmax_back(f.weights, d_a);
    const float k = 1.0f / std::sqrt(float(D_K));
    for (auto& v : d_s) v *= k;

    std::vector<float> d_q(D_K, 0.0f);
    for (int j = 0; j < T; ++j) {
        const float* key = f.K.row(j);
        for (int c = 0; c < D_K; ++c) d_q[size_t(c)] += d_s[size_t(j)] * key[c];
    }

    // each position: its key and value, and the embedding row they were made from
    for (int j = 0; j < T; ++j) {
        std::vector<float> d_k(D_K), d_v(D_V);
        for (int c = 0; c < D_K; ++c) d_k[size_t(c)] = d_s[size_t(j)] * f.q(0, c);
        for (int c = 0; c < D_V; ++c) d_v[size_t(c)] = f.weights(0, j) * d_z[size_t(c)];
        outer_add(grad.W_K, f.X.row(j), d_k.data());
        outer_add(grad.W_V, f.X.row(j), d_v.data());
        std::vector<float> from_k = times_transpose(p.W_K, d_k.data());
        std::vector<float> from_v = times_transpose(p.W_V, d_v.data());
        for (int c = 0; c < D; ++c) grad.embeddings(tokens[size_t(j)], c) += from_k[size_t(c)] + from_v[size_t(c)];
    }

    // the query came from the last position only
    outer_add(grad.W_Q, f.X.row(T - 1), d_q.data());
    std::vector<float> from_q = times_transpose(p.W_Q, d_q.data());
    for (int c = 0; c < D; ++c) grad.embeddings(tokens[size_t(T - 1)], c) += from_q[size_t(c)];
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
