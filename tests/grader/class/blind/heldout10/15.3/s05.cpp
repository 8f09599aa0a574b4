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
#include <cstring>

// Pass the error of y = x W back: W collects x^T dy, and x gets dy W^T (returned in dx).
static void through_projection(const Matrix& W, const float* x, const float* dy, int width, Matrix& dW, float* dx) {
    for (int r = 0; r < D; ++r) {
        float s = 0.0f;
        for (int c = 0; c < width; ++c) {
            dW(r, c) += x[r] * dy[c];
            s += dy[c] * W(r, c);
        }
        dx[r] = s;
    }
}

static void add_to(float* dst, const float* src, int n) {
    for (int i = 0; i < n; ++i) dst[i] += src[i];
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = static_cast<int>(tokens.size());
    const float inv = 1.0f / std::sqrt(static_cast<float>(D_K));

    std::vector<float> g_out(f.probs.data);
    g_out[target] -= 1.0f;
    for (size_t i = 0; i < g_out.size(); ++i) g_out[i] = g_out[i] * loss_weight;

    add_to(grad.bias.data.data(), g_out.data(), int(g_out.size()));
    float g_ctx[D_V];
    for (int r = 0; r < D_V; ++r) {
        float s = 0.0f;
        for (int v = 0; v < p.W_out.cols; ++v) {
            grad.W_out(r, v) += f.z(0, r) * g_out[v];
            s += g_out[v] * p.W_out(r, v);
        }
        g_ctx[r] = s;
    }

    std::vector<float> g_att(n);
    float centre = 0.0f;
    for (int j = 0; j < n; ++j) {
        float s = 0.0f;
        for (int c = 0; c < D_V; ++c) s += g_ctx[c] * f.V(j, c);
        g_att[j] = s;
    }
    for (int j = 0; j < n; ++j) centre += g_att[j] * f.weights(0, j);

    float g_q[D_K];
    std::memset(g_q, 0, sizeof g_q);
    for (int j = 0; j < n; ++j) {
        const float w = f.weights(0, j);
        const float g_s = w * (g_att[j] - centre) * inv;
        float g_k[D_K], g_v[D_V];
        for (int c = 0; c < D_K; ++c) {
            g_q[c] += g_s * f.K(j, c);
            g_k[c] = g_s * f.q(0, c);
        }
        for (int c = 0; c < D_V; ++c) g_v[c] = w * g_ctx[c];

        float from_k[D], from_v[D];
        through_projection(p.W_K, f.X.row(j), g_k, D_K, grad.W_K, from_k);
        through_projection(p.W_V, f.X.row(j), g_v, D_V, grad.W_V, from_v);
        add_to(from_k, from_v, D);
        add_to(grad.embeddings.row(tokens[j]), from_k, D);
    }

    float from_q[D];
    through_projection(p.W_Q, f.X.row(n - 1), g_q, D_K, grad.W_Q, from_q);
    add_to(grad.embeddings.row(tokens[n - 1]), from_q, D);
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
