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
// Kept in one small struct so the pieces share what they need.
struct ColourBack {
    const Params& P;
    const Forward& F;
    Params& G;

    // gradient for the weight matrix only: dW += x^T dy
    void weight_grad(Matrix& dW, const std::vector<float>& x, const std::vector<float>& dy) const {
        for (size_t a = 0; a < x.size(); a++)
            for (size_t b = 0; b < dy.size(); b++) dW(int(a), int(b)) += x[a] * dy[b];
    }
    // gradient for the input row only: dy W^T
    std::vector<float> input_grad(const Matrix& W, const std::vector<float>& dy) const {
        std::vector<float> dx(W.rows, 0.0f);
        for (int a = 0; a < W.rows; a++)
            for (int b = 0; b < W.cols; b++) dx[a] += W(a, b) * dy[b];
        return dx;
    }
    static std::vector<float> get(const Matrix& m, int r) { return std::vector<float>(m.row(r), m.row(r) + m.cols); }
};

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    ColourBack cb{p, f, grad};
    const int len = (int)tokens.size();

    std::vector<float> g_out = ColourBack::get(f.probs, 0);
    g_out[target] -= 1.0f;
    for (float& x : g_out) x *= loss_weight;

    std::vector<float> g_ctx = cb.input_grad(p.W_out, g_out);
    cb.weight_grad(grad.W_out, ColourBack::get(f.z, 0), g_out);
    for (int k = 0; k < (int)g_out.size(); k++) grad.bias(0, k) += g_out[k];

    std::vector<float> attn = ColourBack::get(f.weights, 0), g_attn(len, 0.0f);
    for (int j = 0; j < len; j++) {
        float t = 0.0f;
        for (int c = 0; c < D_V; c++) t += f.V(j, c) * g_ctx[c];
        g_attn[j] = t;
    }
    float mean = 0.0f;
    for (int j = 0; j < len; j++) mean += attn[j] * g_attn[j];

    const float k = 1.0f / std::sqrt((float)D_K);
    std::vector<float> g_query(D_K, 0.0f);
    for (int j = 0; j < len; j++) {
        const float gs = attn[j] * (g_attn[j] - mean);
        std::vector<float> g_key(D_K), g_val(D_V);
        for (int c = 0; c < D_V; c++) g_val[c] = g_ctx[c] * attn[j];
        for (int c = 0; c < D_K; c++) {
            g_key[c] = f.q(0, c) * (gs * k);
            g_query[c] += f.K(j, c) * (gs * k);
        }
        const std::vector<float> x = ColourBack::get(f.X, j);
        cb.weight_grad(grad.W_V, x, g_val);
        cb.weight_grad(grad.W_K, x, g_key);
        const std::vector<float> from_v = cb.input_grad(p.W_V, g_val);
        const std::vector<float> from_k = cb.input_grad(p.W_K, g_key);
        for (int c = 0; c < D; c++) grad.embeddings(tokens[j], c) += from_k[c] + from_v[c];
    }

    cb.weight_grad(grad.W_Q, ColourBack::get(f.X, len - 1), g_query);
    const std::vector<float> from_q = cb.input_grad(p.W_Q, g_query);
    for (int c = 0; c < D; c++) grad.embeddings(tokens[len - 1], c) += from_q[c];
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
