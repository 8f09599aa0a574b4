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

// logits = z W_out + bias: bias and W_out collect their share, the context vector's gradient is returned
static std::vector<float> output_layer_back(const Params& p, const Forward& f, const std::vector<float>& g_out,
                                            Params& grad) {
    std::vector<float> g_ctx(D_V, 0.0f);
    for (size_t v = 0; v < g_out.size(); ++v) grad.bias(0, int(v)) += g_out[v];
    int r = 0;
    while (r < D_V) {
        for (int v = 0; v < int(g_out.size()); ++v) {
            grad.W_out(r, v) += f.z(0, r) * g_out[v];
            g_ctx[r] += p.W_out(r, v) * g_out[v];
        }
        ++r;
    }
    return g_ctx;
}

static void projections_back(const Params& p, const std::vector<int>& tokens, const Forward& f, const Matrix& gK,
                             const Matrix& gV, const std::vector<float>& gq, Params& grad) {
    const int len = int(tokens.size()), final_pos = len - 1;
    for (int r = 0; r < D; ++r)
        for (int c = 0; c < D_K; ++c) grad.W_Q(r, c) += f.X(final_pos, r) * gq[c];
    int pos = 0;
    while (pos < len) {
        for (int r = 0; r < D; ++r) {
            for (int c = 0; c < D_K; ++c) grad.W_K(r, c) += f.X(pos, r) * gK(pos, c);
            for (int c = 0; c < D_V; ++c) grad.W_V(r, c) += f.X(pos, r) * gV(pos, c);
        }
        ++pos;
    }
    for (pos = 0; pos < len; ++pos)
        for (int r = 0; r < D; ++r) {
            float acc = 0.0f;
            for (int c = 0; c < D_K; ++c) acc += gK(pos, c) * p.W_K(r, c);
            for (int c = 0; c < D_V; ++c) acc += gV(pos, c) * p.W_V(r, c);
            if (pos == final_pos)
                for (int c = 0; c < D_K; ++c) acc += gq[c] * p.W_Q(r, c);
            grad.embeddings(tokens[pos], r) += acc;
        }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int len = (int)tokens.size();
    const float inv_root = 1.0f / std::sqrt((float)D_K);
    std::vector<float> g_out(p.W_out.cols);
    for (int v = 0; v < p.W_out.cols; ++v) g_out[v] = loss_weight * (f.probs(0, v) - (v == target));
    const std::vector<float> g_ctx = output_layer_back(p, f, g_out, grad);

    std::vector<float> g_w(len, 0.0f), g_s(len);
    float centre = 0.0f;
    for (int pos = 0; pos < len; ++pos) {
        for (int c = 0; c < D_V; ++c) g_w[pos] += g_ctx[c] * f.V(pos, c);
        centre += f.weights(0, pos) * g_w[pos];
    }
    for (int pos = 0; pos < len; ++pos) g_s[pos] = f.weights(0, pos) * (g_w[pos] - centre);

    Matrix gK(len, D_K), gV(len, D_V);
    std::vector<float> gq(D_K, 0.0f);
    for (int pos = 0; pos < len; ++pos) {
        for (int c = 0; c < D_V; ++c) gV(pos, c) = f.weights(0, pos) * g_ctx[c];
        for (int c = 0; c < D_K; ++c) {
            gK(pos, c) = g_s[pos] * inv_root * f.q(0, c);
            gq[c] += g_s[pos] * inv_root * f.K(pos, c);
        }
    }
    projections_back(p, tokens, f, gK, gV, gq, grad);
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
