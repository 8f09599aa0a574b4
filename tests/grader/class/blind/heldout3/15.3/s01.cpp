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
typedef double acc_t;

static acc_t dot_row(const std::vector<acc_t>& g, const Matrix& M, int row, int n) {
    acc_t total = 0;
    int c = 0;
    while (c < n) {
        total += g[c] * M(row, c);
        c++;
    }
    return total;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int vocab = p.bias.cols;
    const int count = static_cast<int>(tokens.size());
    std::vector<acc_t> dl(vocab);
    for (int w = 0; w < vocab; w++) dl[w] = (acc_t(f.probs(0, w)) - (w == target ? 1.0 : 0.0)) * loss_weight;
    for (int w = 0; w < vocab; w++) {
        grad.bias(0, w) += float(dl[w]);
        for (int r = 0; r < D_V; r++) grad.W_out(r, w) += float(f.z(0, r) * dl[w]);
    }
    std::vector<acc_t> dz(D_V, 0.0);
    for (int r = 0; r < D_V; r++)
        for (int w = 0; w < vocab; w++) dz[r] += dl[w] * p.W_out(r, w);

    const acc_t factor = 1.0 / std::sqrt(static_cast<acc_t>(D_K));
    std::vector<acc_t> dA(count), dS(count), dQ(D_K, 0.0);
    acc_t weighted = 0;
    for (int j = 0; j < count; j++) {
        dA[j] = dot_row(dz, f.V, j, D_V);
        weighted += f.weights(0, j) * dA[j];
    }
    for (int j = 0; j < count; j++) {
        dS[j] = f.weights(0, j) * (dA[j] - weighted) * factor;
        for (int c = 0; c < D_K; c++) dQ[c] += dS[j] * f.K(j, c);
    }

    std::vector<acc_t> dK(D_K), dV(D_V);
    int j = 0;
    while (j < count) {
        for (int c = 0; c < D_V; c++) dV[c] = f.weights(0, j) * dz[c];
        for (int c = 0; c < D_K; c++) dK[c] = dS[j] * f.q(0, c);
        const bool last = j == count - 1;
        for (int r = 0; r < D; r++) {
            const acc_t x = f.X(j, r);
            for (int c = 0; c < D_K; c++) grad.W_K(r, c) += float(x * dK[c]);
            for (int c = 0; c < D_V; c++) grad.W_V(r, c) += float(x * dV[c]);
            acc_t de = dot_row(dK, p.W_K, r, D_K) + dot_row(dV, p.W_V, r, D_V);
            if (last) {
                for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += float(x * dQ[c]);
                de += dot_row(dQ, p.W_Q, r, D_K);
            }
            grad.embeddings(tokens[j], r) += float(de);
        }
        j++;
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
