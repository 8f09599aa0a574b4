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

using Row = std::vector<float>;
#define EACH(i, n) for (int i = 0; i < (n); i++)

// W_K and W_V through sums over the positions, and each embedding row's key and value part
static void projections(const Params& p, const std::vector<int>& tokens, const Forward& f, const Row& gs,
                        const Row& gz, const std::array<float, D_K>& qs, Params& grad) {
    std::array<float, D> kb, vb, sx{}, ax{};
    int r = 0;
    while (r < D) {
        kb[r] = 0.0f;
        vb[r] = 0.0f;
        EACH(c, D_K) kb[r] += qs[c] * p.W_K(r, c);
        EACH(c, D_V) vb[r] += gz[c] * p.W_V(r, c);
        r++;
    }
    EACH(t, int(tokens.size())) {
        const float g = gs[t], w = f.weights(0, t);
        float* e = grad.embeddings.row(tokens[t]);
        EACH(k, D) {
            sx[k] += g * f.X(t, k);
            ax[k] += w * f.X(t, k);
            e[k] += g * kb[k] + w * vb[k];
        }
    }
    EACH(k, D) {
        EACH(c, D_V) grad.W_V(k, c) += ax[k] * gz[c];
        EACH(c, D_K) grad.W_K(k, c) += sx[k] * qs[c];
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = int(tokens.size()), nv = p.bias.cols;
    const float sc = 1.0f / std::sqrt(float(D_K));
    Row gl(nv), gz(D_V), gw(n), gs(n);
    EACH(i, nv) gl[i] = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    EACH(r, D_V) gz[r] = dot(gl.data(), p.W_out.row(r), nv);
    EACH(j, n) gw[j] = dot(gz.data(), f.V.row(j), D_V);
    const float mean = dot(f.weights.row(0), gw.data(), n);
    EACH(j, n) gs[j] = f.weights(0, j) * (gw[j] - mean);
    std::array<float, D_K> qs;
    EACH(c, D_K) qs[c] = f.q(0, c) * sc;
    projections(p, tokens, f, gs, gz, qs, grad);
    // the query comes from the last position only
    float gq[D_K] = {}, back[D] = {};
    EACH(j, n) EACH(c, D_K) gq[c] += gs[j] * f.K(j, c) * sc;
    add_outer_and_back<D, D_K>(f.X.row(n - 1), gq, p.W_Q, grad.W_Q, back);
    EACH(r, D) grad.embeddings(tokens[n - 1], r) += back[r];
    // the output layer last: nothing above reads its gradients
    EACH(r, D_V) EACH(i, nv) grad.W_out(r, i) += f.z(0, r) * gl[i];
    EACH(i, nv) grad.bias(0, i) += gl[i];
}

// ---------------------------------------------------------------------------
// The lesson: your gradient of the mean training loss against finite differences.

constexpr float STEP = 1e-2f;         // large enough that float rounding in the loss stays small
constexpr double TOLERANCE = 0.05;    // of the block's largest gradient entry; a wrong sign gives 2

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
                    worst / biggest < 0.01 ? "below 0.01" : ok ? "below 0.05" : "above 0.05", ok ? "yes" : "no");
    }
    std::printf("\n%d of 6 blocks match finite differences (step %g, tolerance %g of the block's largest entry)\n",
                matching, double(STEP), TOLERANCE);
    return 0;
}
