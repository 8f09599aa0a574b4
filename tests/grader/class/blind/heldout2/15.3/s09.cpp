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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size()), nv = p.bias.cols;

    // logits = z W_out + bias
    Matrix g_logits(1, nv);
    for (int i = 0; i < nv; i++) g_logits(0, i) = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    for (int i = 0; i < nv; i++) grad.bias(0, i) += g_logits(0, i);
    for (int r = 0; r < D_V; r++)
        for (int i = 0; i < nv; i++) grad.W_out(r, i) += f.z(0, r) * g_logits(0, i);
    Matrix g_z(1, D_V);
    for (int r = 0; r < D_V; r++) g_z(0, r) = dot(g_logits.row(0), p.W_out.row(r), nv);

    // z = sum_j a_j v_j
    Matrix g_a(1, len);
    for (int j = 0; j < len; j++) g_a(0, j) = dot(g_z.row(0), f.V.row(j), D_V);

    // softmax
    float centre = dot(f.weights.row(0), g_a.row(0), len);
    Matrix g_s(1, len);
    for (int j = 0; j < len; j++) g_s(0, j) = f.weights(0, j) * (g_a(0, j) - centre);

    // scores
    const float sc = 1.0f / std::sqrt(float(D_K));
    Matrix g_q(1, D_K);
    for (int j = 0; j < len; j++)
        for (int c = 0; c < D_K; c++) g_q(0, c) += g_s(0, j) * f.K(j, c) * sc;

    // keys and values: each position's gradient is a vector times a number
    float q_sc[D_K];
    for (int c = 0; c < D_K; c++) q_sc[c] = f.q(0, c) * sc;
    float kb[D], vb[D];
    float s_dsx[D] = {}, s_ax[D] = {};
    for (int r = 0; r < D; r++) {
        kb[r] = 0.0f, vb[r] = 0.0f;
        for (int c = 0; c < D_K; c++) kb[r] += q_sc[c] * p.W_K(r, c);
        for (int c = 0; c < D_V; c++) vb[r] += g_z(0, c) * p.W_V(r, c);
    }
    for (int t = 0; t < len; t++) {
        const float ds = g_s(0, t), a = f.weights(0, t);
        float* g_emb = grad.embeddings.row(tokens[t]);
        for (int r = 0; r < D; r++) {
            s_dsx[r] += ds * f.X(t, r);
            s_ax[r] += a * f.X(t, r);
            g_emb[r] += ds * kb[r] + a * vb[r];
        }
    }
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += s_dsx[r] * q_sc[c];
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += s_ax[r] * g_z(0, c);
    }

    // q = x_last W_Q
    float g_x_last[D] = {};
    add_outer_and_back<D, D_K>(f.X.row(len - 1), g_q.row(0), p.W_Q, grad.W_Q, g_x_last);
    for (int r = 0; r < D; r++) grad.embeddings(tokens[len - 1], r) += g_x_last[r];
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
