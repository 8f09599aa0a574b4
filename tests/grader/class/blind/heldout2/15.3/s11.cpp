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
typedef std::vector<float> floats;

static void back_linear(const float* in, const float* g_out, int n_in, int n_out, const Matrix& W, Matrix& gW,
                        float* g_in);

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size());
    const float factor = 1.0f / std::sqrt(float(D_K));

    // output layer, inlined
    const int nv = p.bias.cols;
    floats g_logits(nv);
    for (int v = 0; v < nv; ++v) {
        g_logits[v] = loss_weight * (f.probs(0, v) - (v == target ? 1.0f : 0.0f));
        grad.bias(0, v) += g_logits[v];
    }
    floats g_z(D_V, 0.0f);
    back_linear(f.z.row(0), g_logits.data(), D_V, nv, p.W_out, grad.W_out, g_z.data());

    floats g_w(len);
    int j = 0;
    while (j < len) {
        g_w[j] = dot(g_z.data(), f.V.row(j), D_V);
        ++j;
    }
    // softmax backward, inlined
    const float* a = f.weights.row(0);
    float avg = 0.0f;
    for (size_t i = 0; i < g_w.size(); ++i) avg += a[i] * g_w[i];
    floats g_s(g_w.size());
    for (size_t i = 0; i < g_w.size(); ++i) g_s[i] = a[i] * (g_w[i] - avg);

    floats g_q(D_K, 0.0f);
    for (j = 0; j < len; ++j) {
        float g_k[D_K], g_v[D_V];
        for (int c = 0; c < D_V; ++c) g_v[c] = f.weights(0, j) * g_z[c];
        for (int c = 0; c < D_K; ++c) {
            g_k[c] = g_s[j] * factor * f.q(0, c);
            g_q[c] += g_s[j] * factor * f.K(j, c);
        }
        back_linear(f.X.row(j), g_k, D, D_K, p.W_K, grad.W_K, grad.embeddings.row(tokens[j]));
        back_linear(f.X.row(j), g_v, D, D_V, p.W_V, grad.W_V, grad.embeddings.row(tokens[j]));
    }
    back_linear(f.X.row(len - 1), g_q.data(), D, D_K, p.W_Q, grad.W_Q, grad.embeddings.row(tokens[len - 1]));
}

// y = in W: gW += in^T g_out, g_in += g_out W^T
static void back_linear(const float* in, const float* g_out, int n_in, int n_out, const Matrix& W, Matrix& gW,
                        float* g_in) {
    int r = 0;
    while (r < n_in) {
        for (int c = 0; c < n_out; ++c) {
            gW(r, c) += in[r] * g_out[c];
            g_in[r] += g_out[c] * W(r, c);
        }
        ++r;
    }
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
