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
// x W = y backward for a single row, as a generic lambda inside the function
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    auto back_row = [](const float* in, const float* g_out, int rows, int cols, const Matrix& M, Matrix& gM,
                       float* g_in) {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                gM(r, c) += in[r] * g_out[c];
                g_in[r] += g_out[c] * M(r, c);
            }
    };
    const int len = int(tokens.size());
    const int nv = p.bias.cols;

    std::vector<float> gl(nv), gz(D_V, 0.0f);
    for (int v = 0; v < nv; ++v) {
        gl[v] = loss_weight * (f.probs(0, v) - (v == target ? 1.0f : 0.0f));
        grad.bias(0, v) += gl[v];
    }
    for (int r = 0; r < D_V; ++r)
        for (int v = 0; v < nv; ++v) {
            grad.W_out(r, v) += f.z(0, r) * gl[v];
            gz[r] += gl[v] * p.W_out(r, v);
        }

    std::vector<float> gs(len);
    float avg = 0.0f;
    for (int j = 0; j < len; ++j) {
        float d = 0.0f;
        for (int c = 0; c < D_V; ++c) d += gz[c] * f.V(j, c);
        gs[j] = d;
    }
    for (int j = 0; j < len; ++j) avg += f.weights(0, j) * gs[j];
    for (int j = 0; j < len; ++j) gs[j] = f.weights(0, j) * (gs[j] - avg);

    const float k = 1.0f / std::sqrt(float(D_K));
    float gq[D_K] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < len; ++j) {
        float gk[D_K], gv[D_V];
        for (int c = 0; c < D_V; ++c) gv[c] = f.weights(0, j) * gz[c];
        for (int c = 0; c < D_K; ++c) {
            gk[c] = gs[j] * k * f.q(0, c);
            gq[c] += gs[j] * k * f.K(j, c);
        }
        float* emb = grad.embeddings.row(tokens[j]);
        back_row(f.X.row(j), gk, D, D_K, p.W_K, grad.W_K, emb);
        back_row(f.X.row(j), gv, D, D_V, p.W_V, grad.W_V, emb);
    }
    back_row(f.X.row(len - 1), gq, D, D_K, p.W_Q, grad.W_Q, grad.embeddings.row(tokens[len - 1]));
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
