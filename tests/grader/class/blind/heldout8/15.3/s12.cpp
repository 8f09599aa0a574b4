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
// step 1: the logits
static std::vector<float> logits_gradient(const Forward& f, int target, float loss_weight) {
    std::vector<float> g(f.probs.cols);
    for (int v = 0; v < f.probs.cols; v++) {
        float y = 0.0f;
        if (v == target) y = 1.0f;
        g[v] = loss_weight * (f.probs(0, v) - y);
    }
    return g;
}

// step 3: softmax backward
static std::vector<float> softmax_backward(const Matrix& w, const std::vector<float>& dw) {
    float weighted = 0.0f;
    for (size_t j = 0; j < dw.size(); j++) weighted += w(0, int(j)) * dw[j];
    std::vector<float> ds(dw.size());
    for (size_t j = 0; j < dw.size(); j++) ds[j] = w(0, int(j)) * (dw[j] - weighted);
    return ds;
}

// adds x^T dy into dW and returns dy W^T
static std::vector<float> linear_backward(const Matrix& W, const float* x, const std::vector<float>& dy, Matrix& dW) {
    std::vector<float> dx(W.rows, 0.0f);
    for (int r = 0; r < W.rows; r++)
        for (int c = 0; c < W.cols; c++) {
            dW(r, c) += x[r] * dy[c];
            dx[r] += dy[c] * W(r, c);
        }
    return dx;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    int seq_len = int(tokens.size());
    std::vector<float> d_logits = logits_gradient(f, target, loss_weight);
    for (int v = 0; v < grad.bias.cols; v++) grad.bias(0, v) += d_logits[v];

    // step 2: the context vector
    std::vector<float> d_z = linear_backward(p.W_out, f.z.row(0), d_logits, grad.W_out);
    std::vector<float> d_w(seq_len);
    for (int j = 0; j < seq_len; j++) d_w[j] = dot(d_z.data(), f.V.row(j), D_V);

    std::vector<float> d_s = softmax_backward(f.weights, d_w);

    // step 4: scores, then the projections and the embedding rows
    float inv_sqrt = 1.0f / std::sqrt(float(D_K));
    std::vector<float> d_q(D_K, 0.0f);
    for (int j = 0; j < seq_len; j++) {
        std::vector<float> d_k(D_K), d_v(D_V);
        for (int c = 0; c < D_K; c++) {
            d_q[c] += d_s[j] * inv_sqrt * f.K(j, c);
            d_k[c] = d_s[j] * inv_sqrt * f.q(0, c);
        }
        for (int c = 0; c < D_V; c++) d_v[c] = f.weights(0, j) * d_z[c];
        std::vector<float> from_key = linear_backward(p.W_K, f.X.row(j), d_k, grad.W_K);
        std::vector<float> from_value = linear_backward(p.W_V, f.X.row(j), d_v, grad.W_V);
        for (int c = 0; c < D; c++) grad.embeddings(tokens[j], c) += from_key[c] + from_value[c];
    }
    std::vector<float> from_query = linear_backward(p.W_Q, f.X.row(seq_len - 1), d_q, grad.W_Q);
    for (int c = 0; c < D; c++) grad.embeddings(tokens[0], c) += from_query[c];
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
