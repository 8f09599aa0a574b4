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
// scratch buffers in vectors; one macro for the flat index of the embedding gradient
#define AT(pos, col) ((pos) * D + (col))

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = (int)tokens.size();
    const int nw = p.bias.cols;
    const float k = 1.0f / sqrtf((float)D_K);
    std::vector<float> g_out(nw, 0.0f), g_ctx(D_V, 0.0f), g_att(len, 0.0f), g_sc(len, 0.0f);
    std::vector<float> g_qr(D_K, 0.0f), g_emb((size_t)len * D, 0.0f);

    // logits
    for (int w = 0; w < nw; w++) {
        float v = f.probs(0, w);
        if (w == target) v -= 1.0f;
        g_out[w] = v * loss_weight;
        grad.bias(0, w) += g_out[w];
    }
    int col = 0;
    while (col < D_V) {
        for (int w = 0; w < nw; w++) {
            grad.W_out(col, w) += f.z(0, col) * g_out[w];
            g_ctx[col] += p.W_out(col, w) * g_out[w];
        }
        col++;
    }

    // attention row
    float acc = 0.0f;
    for (int j = 0; j < len; j++) {
        for (int c = 0; c < D_V; c++) g_att[j] += f.V(j, c) * g_ctx[c];
        acc += f.weights(0, j) * g_att[j];
    }
    for (int j = 0; j < len; j++) g_sc[j] = f.weights(0, j) * (g_att[j] - acc) * k;

    // key side first this time, then values: they write different blocks
    for (int c = 0; c < D_K; c++)
        for (int j = 0; j < len; j++) {
            g_qr[c] += g_sc[j] * f.K(j, c);
            for (int r = 0; r < D; r++) {
                grad.W_K(r, c) += f.X(j, r) * g_sc[j] * f.q(0, c);
                g_emb[AT(j, r)] += g_sc[j] * f.q(0, c) * p.W_K(r, c);
            }
        }
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_V; c++)
            for (int j = 0; j < len; j++) {
                grad.W_V(r, c) += f.X(j, r) * f.weights(0, j) * g_ctx[c];
                g_emb[AT(j, r)] += f.weights(0, j) * g_ctx[c] * p.W_V(r, c);
            }
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++) {
            grad.W_Q(r, c) += f.X(len - 1, r) * g_qr[c];
            g_emb[AT(len - 1, r)] += g_qr[c] * p.W_Q(r, c);
        }

    for (int j = 0; j < len; j++)
        for (int r = 0; r < D; r++) grad.embeddings(tokens[j], r) += g_emb[AT(j, r)];
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
