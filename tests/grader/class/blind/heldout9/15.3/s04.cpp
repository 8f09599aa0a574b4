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

// Back-propagation written one position at a time, last position first,
// with a small fixed-size row type.
using RowK = std::array<float, D_K>;
using RowV = std::array<float, D_V>;
using RowD = std::array<float, D>;

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = static_cast<int>(tokens.size());
    const int vocab = p.W_out.cols;

    // --- output layer ---
    RowV dctx{};
    for (int w = 0; w < vocab; ++w) {
        float g = f.probs(0, w);
        if (w == target) g -= 1.0f;
        g *= loss_weight;
        grad.bias(0, w) += g;
        for (int m = 0; m < D_V; ++m) {
            grad.W_out(m, w) += f.z(0, m) * g;
            dctx[m] += g * p.W_out(m, w);
        }
    }

    // --- attention weights and their softmax ---
    std::vector<float> dattn(len);
    float weighted = 0.0f;
    for (int j = 0; j < len; ++j) {
        float d = 0.0f;
        for (int m = 0; m < D_V; ++m) d += f.V(j, m) * dctx[m];
        dattn[j] = d;
        weighted += d * f.weights(0, j);
    }
    const float k_scale = 1.0f / std::sqrt(static_cast<float>(D_K));

    RowK dquery{};
    for (int j = len - 1; j >= 0; --j) {
        const float dscore = f.weights(0, j) * (dattn[j] - weighted) * k_scale;
        RowK dkey;
        RowV dval;
        for (int m = 0; m < D_K; ++m) {
            dkey[m] = dscore * f.q(0, m);
            dquery[m] += dscore * f.K(j, m);
        }
        for (int m = 0; m < D_V; ++m) dval[m] = f.weights(0, j) * dctx[m];

        RowD dx{};
        for (int e = 0; e < D; ++e) {
            const float x = f.X(j, e);
            for (int m = 0; m < D_K; ++m) {
                grad.W_K(e, m) += x * dkey[m];
                dx[e] += p.W_K(e, m) * dkey[m];
            }
            for (int m = 0; m < D_V; ++m) {
                grad.W_V(e, m) += x * dval[m];
                dx[e] += p.W_V(e, m) * dval[m];
            }
        }
        for (int e = 0; e < D; ++e) grad.embeddings(tokens[j], e) += dx[e];
    }

    // --- the query came from the last position only ---
    const int last = len - 1;
    for (int e = 0; e < D; ++e) {
        float back = 0.0f;
        for (int m = 0; m < D_K; ++m) {
            grad.W_Q(e, m) += f.X(last, e) * dquery[m];
            back += p.W_Q(e, m) * dquery[m];
        }
        grad.embeddings(tokens[last], e) += back;
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
