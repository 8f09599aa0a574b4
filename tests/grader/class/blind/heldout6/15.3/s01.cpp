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

using namespace std;

// Sums kept in double, rounded once when added into grad.
void backward(const Params& p, const vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const size_t len = tokens.size();
    const size_t vocab = size_t(p.bias.cols);
    const double half = 1.0 / sqrt(double(D_K));

    vector<double> dlogit(vocab);
    for (size_t k = 0; k < vocab; ++k)
        dlogit[k] = loss_weight * (double(f.probs(0, int(k))) - (int(k) == target));

    auto matvecT = [&](const Matrix& W, const vector<double>& v, size_t width) {
        // row r of W dotted with v: v W^T
        vector<double> out(size_t(W.rows), 0.0);
        for (int r = 0; r < W.rows; ++r)
            for (size_t c = 0; c < width; ++c) out[size_t(r)] += v[c] * W(r, int(c));
        return out;
    };

    vector<double> dctx = matvecT(p.W_out, dlogit, vocab);
    for (size_t k = 0; k < vocab; ++k) {
        grad.bias(0, int(k)) += float(dlogit[k]);
        for (int r = 0; r < D_V; ++r) grad.W_out(r, int(k)) += float(f.z(0, r) * dlogit[k]);
    }

    vector<double> dw(len);
    double weighted = 0.0;
    for (size_t s = 0; s < len; ++s) {
        double acc = 0.0;
        for (int c = 0; c < D_V; ++c) acc += dctx[size_t(c)] * f.V(int(s), c);
        dw[s] = acc;
        weighted += f.weights(0, int(s)) * acc;
    }

    vector<double> dquery(D_K, 0.0);
    for (size_t s = 0; s < len; ++s) {
        const int row = int(s);
        const double a = f.weights(0, row);
        const double dscore = a * (dw[s] - weighted);
        vector<double> dkey(D_K), dval(D_V);
        for (int c = 0; c < D_K; ++c) {
            dquery[size_t(c)] += dscore * half * f.K(row, c);
            dkey[size_t(c)] = dscore * half * f.q(0, c);
        }
        for (int c = 0; c < D_V; ++c) dval[size_t(c)] = a * dctx[size_t(c)];
        for (int r = 0; r < D; ++r) {
            const double x = f.X(row, r);
            for (int c = 0; c < D_K; ++c) grad.W_K(r, c) += float(x * dkey[size_t(c)]);
            for (int c = 0; c < D_V; ++c) grad.W_V(r, c) += float(x * dval[size_t(c)]);
        }
        vector<double> fromKey = matvecT(p.W_K, dkey, D_K), fromVal = matvecT(p.W_V, dval, D_V);
        for (int r = 0; r < D; ++r) grad.embeddings(tokens[s], r) += float(fromKey[size_t(r)] + fromVal[size_t(r)]);
    }

    const int last = int(len) - 1;
    for (int r = 0; r < D; ++r)
        for (int c = 0; c < D_K; ++c) grad.W_Q(r, c) += float(f.X(last, r) * dquery[size_t(c)]);
    vector<double> fromQuery = matvecT(p.W_Q, dquery, D_K);
    for (int r = 0; r < D; ++r) grad.embeddings(tokens[size_t(last)], r) += float(fromQuery[size_t(r)]);
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
