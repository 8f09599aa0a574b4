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

static void add_outer(Matrix& G, const float* x, const float* y) {
    for (int r = 0; r < G.rows; r++)
        for (int c = 0; c < G.cols; c++) G(r, c) += x[r] * y[c];
}

static void add_back(float* out, const float* y, const Matrix& W) {
    for (int r = 0; r < W.rows; r++)
        for (int c = 0; c < W.cols; c++) out[r] += y[c] * W(r, c);
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size());
    std::vector<float> g_logits(p.W_out.cols);
    for (size_t i = 0; i < g_logits.size(); i++) g_logits[i] = loss_weight * f.probs(0, int(i));
    g_logits[target] -= loss_weight;
    for (int i = 0; i < p.W_out.cols; i++) grad.bias(0, i) += g_logits[i];
    add_outer(grad.W_out, f.z.row(0), g_logits.data());
    std::array<float, D_V> g_z{};
    add_back(g_z.data(), g_logits.data(), p.W_out);

    std::vector<float> g_w(len), g_s(len);
    float avg = 0.0f;
    for (int t = 0; t < len; t++) {
        g_w[t] = dot(g_z.data(), f.V.row(t), D_V);
        avg += f.weights(0, t) * g_w[t];
    }
    const float root = std::sqrt(float(D_K));
    for (int t = 0; t < len; t++) g_s[t] = f.weights(0, t) * (g_w[t] - avg) / root;

    std::array<float, D_K> g_q{};
    for (int t = 0; t < len; t++) {
        std::array<float, D_K> g_k;
        std::array<float, D_V> g_v;
        std::array<float, D> g_x{};
        for (int c = 0; c < D_V; c++) g_v[c] = f.weights(0, t) * g_z[c];
        for (int c = 0; c < D_K; c++) {
            g_k[c] = g_s[t] * f.q(0, c);
            g_q[c] += g_s[t] * f.K(t, c);
        }
        add_outer(grad.W_V, f.X.row(t), g_v.data());
        add_outer(grad.W_K, f.X.row(t), g_k.data());
        add_back(g_x.data(), g_k.data(), p.W_K);
        add_back(g_x.data(), g_v.data(), p.W_V);
        for (int r = 0; r < D; r++) grad.embeddings(tokens[t], r) += g_x[r];
    }
    std::array<float, D> g_last{};
    add_outer(grad.W_Q, f.X.row(len - 1), g_q.data());
    add_back(g_last.data(), g_q.data(), p.W_Q);
    for (int r = 0; r < D; r++) grad.embeddings(tokens[len - 1], r) += g_last[r];
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
