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
#include <numeric>

using fvec = std::vector<float>;
#define AT(v, i) v[static_cast<size_t>(i)]

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n_pos = static_cast<int>(tokens.size());

    // error at the logits (softmax + cross-entropy)
    fvec e_out(f.probs.data);
    AT(e_out, target) -= 1.0f;
    for (auto& x : e_out) x *= loss_weight;

    // bias, then W_out as an outer product z^T e
    int i = 0;
    while (i < grad.bias.cols) {
        grad.bias(0, i) += AT(e_out, i);
        ++i;
    }
    for (int r = 0; r < grad.W_out.rows; ++r)
        for (int c = 0; c < grad.W_out.cols; ++c) grad.W_out(r, c) += f.z(0, r) * AT(e_out, c);
    fvec e_ctx(static_cast<size_t>(p.W_out.rows), 0.0f);
    for (int r = 0; r < p.W_out.rows; ++r) AT(e_ctx, r) = dot(p.W_out.row(r), e_out.data(), p.W_out.cols);

    fvec e_att(static_cast<size_t>(n_pos));
    int j = 0;
    while (j < n_pos) {
        AT(e_att, j) = dot(e_ctx.data(), f.V.row(j), D_V);
        j++;
    }
    const float mean = std::inner_product(e_att.begin(), e_att.end(), f.weights.row(0), 0.0f);
    const float by_root = 1.0f / std::sqrt(float(D_K));
    fvec e_sc(static_cast<size_t>(n_pos));
    for (j = 0; j < n_pos; ++j) AT(e_sc, j) = f.weights(0, j) * (AT(e_att, j) - mean) * by_root;

    fvec e_q(D_K, 0.0f);
    for (j = 0; j < n_pos; ++j)
        for (int c = 0; c < D_K; ++c) AT(e_q, c) += AT(e_sc, j) * f.K(j, c);

    for (j = 0; j < n_pos; ++j) {
        fvec e_k(D_K), e_v(D_V);
        for (int c = 0; c < D_V; ++c) AT(e_v, c) = f.weights(0, j) * AT(e_ctx, c);
        for (int c = 0; c < D_K; ++c) AT(e_k, c) = AT(e_sc, j) * f.q(0, c);
        for (int r = 0; r < D; ++r) {
            for (int c = 0; c < D_V; ++c) grad.W_V(r, c) += f.X(j, r) * AT(e_v, c);
            for (int c = 0; c < D_K; ++c) grad.W_K(r, c) += f.X(j, r) * AT(e_k, c);
        }
        float* emb = grad.embeddings.row(AT(tokens, j));
        for (int r = 0; r < D; ++r) {
            const float k_part = dot(p.W_K.row(r), e_k.data(), D_K);
            const float v_part = dot(p.W_V.row(r), e_v.data(), D_V);
            emb[r] += k_part + v_part;
        }
    }

    const int end = n_pos - 1;
    for (int r = 0; r < D; ++r)
        for (int c = 0; c < D_K; ++c) grad.W_Q(r, c) += f.X(end, r) * AT(e_q, c);
    float* emb_last = grad.embeddings.row(AT(tokens, end));
    for (int r = 0; r < D; ++r) emb_last[r] += dot(p.W_Q.row(r), e_q.data(), D_K);
}
#undef AT

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
