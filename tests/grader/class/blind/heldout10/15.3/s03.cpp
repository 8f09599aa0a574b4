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
using Row = std::array<double, D>;

// W_Q and the last embedding row: the query's share.
void query_share(const Params& p, const Forward& f, const std::vector<double>& dq, int tok, Params& grad) {
    const int last = f.X.rows - 1;
    size_t r = 0;
    while (r < size_t(D)) {
        double back = 0.0;
        for (size_t c = 0; c < size_t(D_K); c++) {
            grad.W_Q(int(r), int(c)) += float(f.X(last, int(r)) * dq[c]);
            back += dq[c] * p.W_Q(int(r), int(c));
        }
        grad.embeddings(tok, int(r)) += float(back);
        r++;
    }
}

// What every position sends back through its key and value: the same vector times a number.
void shared_backs(const Params& p, const Forward& f, const std::vector<double>& dctx, double scl, Row& kb, Row& vb) {
    for (size_t r = 0; r < size_t(D); r++) {
        kb[r] = 0.0;
        vb[r] = 0.0;
        size_t c = 0;
        while (c < size_t(D_V)) {
            vb[r] += dctx[c] * p.W_V(int(r), int(c));
            c++;
        }
        for (c = 0; c < size_t(D_K); c++) kb[r] += f.q(0, int(c)) * scl * p.W_K(int(r), int(c));
    }
}
}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const size_t n = tokens.size(), nv = size_t(p.bias.cols);
    const double scl = 1.0 / std::sqrt(double(D_K));

    std::vector<double> dlog(nv), dctx(size_t(D_V), 0.0);
    for (size_t i = 0; i < nv; i++) {
        dlog[i] = (f.probs(0, int(i)) - (int(i) == target ? 1.0 : 0.0)) * loss_weight;
        grad.bias(0, int(i)) += float(dlog[i]);
    }
    for (size_t r = 0; r < size_t(D_V); r++)
        for (size_t i = 0; i < nv; i++) {
            dctx[r] += dlog[i] * p.W_out(int(r), int(i));
            grad.W_out(int(r), int(i)) += float(f.z(0, int(r)) * dlog[i]);
        }

    std::vector<double> dw(n, 0.0), ds(n);
    for (size_t j = 0; j < n; j++)
        for (size_t c = 0; c < size_t(D_V); c++) dw[j] += dctx[c] * f.V(int(j), int(c));
    double mean = 0.0;
    for (size_t j = 0; j < n; j++) mean += f.weights(0, int(j)) * dw[j];
    for (size_t j = 0; j < n; j++) ds[j] = f.weights(0, int(j)) * (dw[j] - mean);

    std::vector<double> dq(size_t(D_K), 0.0);
    for (size_t j = 0; j < n; j++)
        for (size_t c = 0; c < size_t(D_K); c++) dq[c] += ds[j] * f.K(int(j), int(c)) * scl;
    query_share(p, f, dq, tokens[n - 1], grad);

    Row kb, vb, sum_dx{}, sum_ax{};
    shared_backs(p, f, dctx, scl, kb, vb);
    size_t j = 0;
    while (j < n) {
        const double d = ds[j], a = f.weights(0, int(j));
        for (size_t r = 0; r < size_t(D); r++) {
            sum_ax[r] += a * f.X(int(j), int(r));
            sum_dx[r] += d * f.X(int(j), int(r));
            grad.embeddings(tokens[j], int(r)) += float(d * kb[r] + a * vb[r]);
        }
        ++j;
    }
    for (size_t r = 0; r < size_t(D); r++) {
        for (size_t c = 0; c < size_t(D_V); c++) grad.W_V(int(r), int(c)) += float(sum_ax[r] * dctx[c]);
        for (size_t c = 0; c < size_t(D_K); c++)
            grad.W_K(int(r), int(c)) += float(sum_dx[r] * (f.q(0, int(c)) * scl));
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
