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

// A small helper object so that backward itself stays short.
struct Chain {
    const Params& P;
    const Forward& F;
    Params& G;
    double inv_sqrt;

    // sum over c of g[c] * M(row, c)
    static double along(const double* g, const Matrix& M, int row, int n) {
        double total = 0;
        int c = 0;
        while (c < n) {
            total += g[c] * M(row, c);
            ++c;
        }
        return total;
    }

    void output(const std::vector<double>& dlog) {
        for (int k = 0; k < (int)dlog.size(); ++k) {
            G.bias(0, k) += float(dlog[k]);
            for (int m = 0; m < D_V; ++m) G.W_out(m, k) += float(F.z(0, m) * dlog[k]);
        }
    }
};

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    Chain ch{p, f, grad, 1.0 / std::sqrt(double(D_K))};
    const int n = int(tokens.size());
    const int nv = p.bias.cols;

    std::vector<double> dlog(nv);
    for (int k = 0; k < nv; ++k) {
        const double hot = (k == target) ? 1.0 : 0.0;
        dlog[k] = loss_weight * (double(f.probs(0, k)) - hot);
    }
    ch.output(dlog);  // bias and W_out first; nothing below reads them

    double dctx[D_V] = {0};
    for (int m = 0; m < D_V; ++m)
        dctx[m] = std::inner_product(dlog.begin(), dlog.end(), p.W_out.row(m), 0.0);

    std::vector<double> dsc(n), dw(n);
    double mix = 0;
    int s = 0;
    while (s < n) {
        dw[s] = Chain::along(dctx, f.V, s, D_V);
        mix += f.weights(0, s) * dw[s];
        ++s;
    }

    double dqry[D_K] = {0};
    for (s = 0; s < n; ++s) {
        dsc[s] = f.weights(0, s) * (dw[s] - mix) * ch.inv_sqrt;
        for (int m = 0; m < D_K; ++m) dqry[m] += dsc[s] * f.K(s, m);
    }

    for (s = 0; s < n; ++s) {
        double dv[D_V], dk[D_K];
        for (int m = 0; m < D_V; ++m) dv[m] = f.weights(0, s) * dctx[m];
        for (int m = 0; m < D_K; ++m) dk[m] = dsc[s] * f.q(0, m);
        const bool is_last = (s == n - 1);
        for (int e = 0; e < D; ++e) {
            const double xe = f.X(s, e);
            for (int m = 0; m < D_V; ++m) grad.W_V(e, m) += float(xe * dv[m]);
            for (int m = 0; m < D_K; ++m) grad.W_K(e, m) += float(xe * dk[m]);
            double up = Chain::along(dk, p.W_K, e, D_K) + Chain::along(dv, p.W_V, e, D_V);
            if (is_last) {
                for (int m = 0; m < D_K; ++m) grad.W_Q(e, m) += float(xe * dqry[m]);
                up += Chain::along(dqry, p.W_Q, e, D_K);
            }
            grad.embeddings(tokens[s], e) += float(up);
        }
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
