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

// Gradient of loss_weight * -log p(target), in double until it is added into grad.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    using KVec = std::array<double, D_K>;
    using VVec = std::array<double, D_V>;
    const size_t len = tokens.size();
    const size_t nv = size_t(p.bias.cols);
    const double sq = std::sqrt(double(D_K));

    std::vector<double> dlog(nv);
    for (size_t v = 0; v < nv; ++v)
        dlog[v] = (double(f.probs(0, int(v))) - (int(v) == target ? 1.0 : 0.0)) * loss_weight;

    VVec dctx{};
    for (size_t v = 0; v < nv; ++v) {
        grad.bias(0, int(v)) += float(dlog[v]);
        for (int a = 0; a < D_V; ++a) {
            grad.W_out(a, int(v)) += float(f.z(0, a) * dlog[v]);
            dctx[size_t(a)] += dlog[v] * p.W_out(a, int(v));
        }
    }

    std::vector<double> datt(len), dsc(len);
    for (size_t pos = 0; pos < len; ++pos) {
        double acc = 0.0;
        for (int b = 0; b < D_V; ++b) acc += dctx[size_t(b)] * f.V(int(pos), b);
        datt[pos] = acc;
    }
    double m = 0.0;
    for (size_t pos = 0; pos < len; ++pos) m += f.weights(0, int(pos)) * datt[pos];
    for (size_t pos = 0; pos < len; ++pos) dsc[pos] = f.weights(0, int(pos)) * (datt[pos] - m) / sq;

    KVec dquery{};
    for (size_t pos = 0; pos < len; ++pos) {
        const int id = tokens[pos];
        KVec dkey;
        VVec dval;
        for (int b = 0; b < D_K; ++b) {
            dquery[size_t(b)] += dsc[pos] * f.K(int(pos), b);
            dkey[size_t(b)] = dsc[pos] * f.q(0, b);
        }
        for (int b = 0; b < D_V; ++b) dval[size_t(b)] = f.weights(0, int(pos)) * dctx[size_t(b)];
        for (int a = 0; a < D; ++a) {
            const double xa = f.X(int(pos), a);
            double back = 0.0;
            for (int b = 0; b < D_K; ++b) {
                grad.W_K(a, b) += float(xa * dkey[size_t(b)]);
                back += dkey[size_t(b)] * p.W_K(a, b);
            }
            for (int b = 0; b < D_V; ++b) {
                grad.W_V(a, b) += float(xa * dval[size_t(b)]);
                back += dval[size_t(b)] * p.W_V(a, b);
            }
            grad.embeddings(id, a) += float(back);
        }
    }

    const int end = int(len) - 1;
    for (int a = 0; a < D; ++a) {
        double back = 0.0;
        for (int b = 0; b < D_K; ++b) {
            grad.W_Q(a, b) += float(f.X(end, a) * dquery[size_t(b)]);
            back += dquery[size_t(b)] * p.W_Q(a, b);
        }
        grad.embeddings(tokens[size_t(end)], a) += float(back);
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
