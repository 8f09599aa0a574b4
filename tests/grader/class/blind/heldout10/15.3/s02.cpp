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
/* Backward pass, step by step, in the reverse order of forward().
   Everything kept in float like the forward pass. */
void backward(const Params &p, const std::vector<int> &tokens, const Forward &f, int target,
              float loss_weight, Params &grad)
{
    const size_t len = tokens.size();
    const size_t nv = (size_t)p.W_out.cols;
    const float half = 1.0f / std::sqrt((float)D_K);

    // --- output layer
    std::vector<float> e(nv);
    size_t v = 0;
    while (v < nv) {
        e[v] = loss_weight * (f.probs(0, (int)v) - ((int)v == target));
        grad.bias.data[v] += e[v];
        ++v;
    }
    std::vector<float> zbar(D_V, 0.0f);
    for (size_t r = 0; r < (size_t)D_V; ++r) {
        for (v = 0; v < nv; ++v) {
            grad.W_out((int)r, (int)v) += f.z(0, (int)r) * e[v];
            zbar[r] += e[v] * p.W_out((int)r, (int)v);
        }
    }

    // --- attention weights and scores
    std::vector<float> sbar(len);
    float expect = 0.0f;
    for (size_t t = 0; t < len; ++t) {
        float abar = 0.0f;
        for (size_t c = 0; c < (size_t)D_V; ++c) abar += zbar[c] * f.V((int)t, (int)c);
        sbar[t] = abar;
        expect += f.weights(0, (int)t) * abar;
    }
    for (size_t t = 0; t < len; ++t) sbar[t] = f.weights(0, (int)t) * (sbar[t] - expect);

    // --- queries, keys, values back to W_Q, W_K, W_V
    std::vector<float> qbar(D_K, 0.0f);
    Matrix Kbar((int)len, D_K), Vbar((int)len, D_V);
    for (size_t t = 0; t < len; ++t) {
        for (size_t c = 0; c < (size_t)D_K; ++c) {
            qbar[c] += sbar[t] * half * f.K((int)t, (int)c);
            Kbar((int)t, (int)c) = sbar[t] * half * f.q(0, (int)c);
        }
        for (size_t c = 0; c < (size_t)D_V; ++c) Vbar((int)t, (int)c) = f.weights(0, (int)t) * zbar[c];
    }
    const int last = (int)len - 1;
    for (int i = 0; i < D; ++i) {
        for (int c = 0; c < D_K; ++c) {
            grad.W_Q(i, c) += f.X(last, i) * qbar[(size_t)c];
            for (size_t t = 0; t < len; ++t) grad.W_K(i, c) += f.X((int)t, i) * Kbar((int)t, c);
        }
        for (int c = 0; c < D_V; ++c)
            for (size_t t = 0; t < len; ++t) grad.W_V(i, c) += f.X((int)t, i) * Vbar((int)t, c);
    }

    // --- embeddings: every position, plus the query's path at the last one
    for (size_t t = 0; t < len; ++t) {
        float *row = grad.embeddings.row(tokens[t]);
        for (int i = 0; i < D; ++i) {
            float s = 0.0f;
            for (int c = 0; c < D_K; ++c) s += Kbar((int)t, c) * p.W_K(i, c);
            for (int c = 0; c < D_V; ++c) s += Vbar((int)t, c) * p.W_V(i, c);
            if ((int)t == last)
                for (int c = 0; c < D_K; ++c) s += qbar[(size_t)c] * p.W_Q(i, c);
            row[i] += s;
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
