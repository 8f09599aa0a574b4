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

// Everything in double until it is added into grad.
typedef std::vector<double> dvec;
typedef std::array<double, D_K> kvec;
typedef std::array<double, D_V> vvec;

// x W^T for a row x of the given width: entry r is sum_c x[c] W(r, c)
template <class Row>
static dvec times_transposed(const Row& x, const Matrix& W, size_t width) {
    dvec y(size_t(W.rows), 0.0);
    size_t r = 0;
    while (r < size_t(W.rows)) {
        size_t c = 0;
        while (c < width) {
            y[r] += x[c] * W(int(r), int(c));
            ++c;
        }
        ++r;
    }
    return y;
}

static void key_and_value_back(const Params& p, const Forward& f, int pos, int token, double ds, const vvec& dctx,
                               Params& grad) {
    const double a = f.weights(0, pos);
    const double scaled = ds / std::sqrt(double(D_K));
    kvec kk;
    vvec vv;
    for (int c = 0; c < D_V; ++c) vv[size_t(c)] = a * dctx[size_t(c)];
    for (int c = 0; c < D_K; ++c) kk[size_t(c)] = scaled * f.q(0, c);
    for (int r = 0; r < D; ++r) {
        const double xr = f.X(pos, r);
        for (int c = 0; c < D_V; ++c) grad.W_V(r, c) += float(xr * vv[size_t(c)]);
        for (int c = 0; c < D_K; ++c) grad.W_K(r, c) += float(xr * kk[size_t(c)]);
    }
    const dvec viaK = times_transposed(kk, p.W_K, D_K);
    const dvec viaV = times_transposed(vv, p.W_V, D_V);
    for (int r = 0; r < D; ++r) grad.embeddings(token, r) += float(viaK[size_t(r)] + viaV[size_t(r)]);
}

static vvec output_back(const Params& p, const Forward& f, int target, float lw, Params& grad) {
    const size_t nvocab = size_t(p.bias.cols);
    dvec g(nvocab);
    for (size_t i = 0; i < nvocab; ++i) {
        g[i] = lw * (double(f.probs(0, int(i))) - (int(i) == target));
        grad.bias(0, int(i)) += float(g[i]);
        for (int r = 0; r < D_V; ++r) grad.W_out(r, int(i)) += float(f.z(0, r) * g[i]);
    }
    const dvec back = times_transposed(g, p.W_out, nvocab);
    vvec out;
    for (int r = 0; r < D_V; ++r) out[size_t(r)] = back[size_t(r)];
    return out;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const vvec dctx = output_back(p, f, target, loss_weight, grad);
    const int n = int(tokens.size());

    dvec dweight(size_t(n), 0.0);
    double expected = 0.0;
    int s = 0;
    while (s < n) {
        for (int c = 0; c < D_V; ++c) dweight[size_t(s)] += dctx[size_t(c)] * f.V(s, c);
        expected += f.weights(0, s) * dweight[size_t(s)];
        ++s;
    }

    kvec dquery{};
    const double root = 1.0 / std::sqrt(double(D_K));
    for (s = 0; s < n; ++s) {
        const double ds = f.weights(0, s) * (dweight[size_t(s)] - expected);
        for (int c = 0; c < D_K; ++c) dquery[size_t(c)] += ds * root * f.K(s, c);
        key_and_value_back(p, f, s, tokens[size_t(s)], ds, dctx, grad);
    }

    const int final_pos = n - 1;
    const dvec viaQ = times_transposed(dquery, p.W_Q, D_K);
    for (int r = 0; r < D; ++r) {
        grad.embeddings(tokens[size_t(final_pos)], r) += float(viaQ[size_t(r)]);
        for (int c = 0; c < D_K; ++c) grad.W_Q(r, c) += float(f.X(final_pos, r) * dquery[size_t(c)]);
    }
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
