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

// Backward pass for the colour model.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = int(tokens.size());
    const float k = 1.0f / std::sqrt(float(D_K));

    float ctx[D_V] = {};
    int o = 0;
    while (o < p.bias.cols) {
        const float e = (o == target ? f.probs(0, o) - 1.0f : f.probs(0, o)) * loss_weight;
        int c = 0;
        while (c < D_V) {
            ctx[c] += e * p.W_out(c, o);
            grad.W_out(c, o) += f.z(0, c) * e;
            ++c;
        }
        grad.bias(0, o) += e;
        ++o;
    }

    std::vector<float> ga(n), gs(n);
    float tot = 0.0f;
    for (int j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (int c = 0; c < D_V; ++c) acc += ctx[c] * f.V(j, c);
        ga[j] = acc;
        tot += f.weights(0, j) * acc;
    }
    for (int j = 0; j < n; ++j) gs[j] = f.weights(0, j) * (ga[j] - tot);

    // D_K is 4: written out
    const float q0 = f.q(0, 0) * k, q1 = f.q(0, 1) * k, q2 = f.q(0, 2) * k, q3 = f.q(0, 3) * k;
    float gq0 = 0.0f, gq1 = 0.0f, gq2 = 0.0f, gq3 = 0.0f;
    for (int j = 0; j < n; ++j) {
        gq0 += gs[j] * k * f.K(j, 0);
        gq1 += gs[j] * k * f.K(j, 1);
        gq2 += gs[j] * k * f.K(j, 2);
        gq3 += gs[j] * k * f.K(j, 3);
    }

    std::vector<float> gx(size_t(n) * D);
    for (int j = 0; j < n; ++j) {
        const float w = f.weights(0, j);
        for (int r = 0; r < D; ++r) {
            const float x = f.X(j, r);
            float& acc = gx[size_t(j) * D + r];
            const float k0 = gs[j] * q0, k1 = gs[j] * q1, k2 = gs[j] * q2, k3 = gs[j] * q3;
            grad.W_K(r, 0) += x * k0;
            acc += k0 * p.W_K(r, 0);
            grad.W_K(r, 1) += x * k1;
            acc += k1 * p.W_K(r, 1);
            grad.W_K(r, 2) += x * k2;
            acc += k2 * p.W_K(r, 2);
            grad.W_K(r, 3) += x * k3;
            acc += k3 * p.W_K(r, 3);
            for (int c = 0; c < D_V; ++c) {
                const float v = w * ctx[c];
                grad.W_V(r, c) += x * v;
                acc += v * p.W_V(r, c);
            }
        }
    }

    const float gq[D_K] = {gq0, gq1, gq2, gq3};
    for (int r = 0; r < D; ++r)
        for (int c = 0; c < D_K; ++c) {
            gx[size_t(n - 1) * D + r] += gq[c] * p.W_Q(r, c);
            grad.W_Q(r, c) += f.X(n - 1, r) * gq[c];
        }

    int j = 0;
    while (j < n) {
        for (int r = 0; r < D; ++r) grad.embeddings(tokens[j], r) += gx[size_t(j) * D + r];
        ++j;
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
