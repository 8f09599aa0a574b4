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

// ---- small helpers, all by hand ----

// out[c] = sum_r v[r] * M(r, c)   (a row vector times a matrix)
static std::vector<float> row_times(const std::vector<float>& v, const Matrix& M) {
    std::vector<float> out(M.cols, 0.0f);
    for (int r = 0; r < M.rows; r++)
        for (int c = 0; c < M.cols; c++) out[c] += v[r] * M(r, c);
    return out;
}

// out[r] = sum_c M(r, c) * v[c]   (a row vector times the transpose of a matrix)
static std::vector<float> row_times_transposed(const std::vector<float>& v, const Matrix& M) {
    std::vector<float> out(M.rows, 0.0f);
    for (int r = 0; r < M.rows; r++)
        for (int c = 0; c < M.cols; c++) out[r] += M(r, c) * v[c];
    return out;
}

// G += a^T b for two row vectors a (length G.rows) and b (length G.cols)
static void add_outer(Matrix& G, const float* a, const std::vector<float>& b) {
    for (int r = 0; r < G.rows; r++)
        for (int c = 0; c < G.cols; c++) G(r, c) += a[r] * b[c];
}

// ---- the backward pass ----

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n_tokens = int(tokens.size());
    const int n_out = f.probs.cols;
    const float inv_root = 1.0f / std::sqrt(float(D_K));

    // softmax + cross entropy: probs minus the one-hot target
    std::vector<float> g_logits(n_out);
    for (int k = 0; k < n_out; k++) g_logits[k] = loss_weight * (f.probs(0, k) - (k == target ? 1.0f : 0.0f));

    // logits = z W_out + bias
    for (int k = 0; k < n_out; k++) grad.bias(0, k) += g_logits[k];
    add_outer(grad.W_out, f.z.row(0), g_logits);
    std::vector<float> g_z = row_times_transposed(g_logits, p.W_out);

    // z = sum_j a_j v_j, then the softmax over the scores
    std::vector<float> g_a(n_tokens), g_s(n_tokens);
    float a_dot_ga = 0.0f;
    for (int j = 0; j < n_tokens; j++) {
        float acc = 0.0f;
        for (int c = 0; c < D_V; c++) acc += g_z[c] * f.V(j, c);
        g_a[j] = acc;
        a_dot_ga += f.weights(0, j) * acc;
    }
    for (int j = 0; j < n_tokens; j++) g_s[j] = f.weights(0, j) * (g_a[j] - a_dot_ga);

    // s_j = q . k_j / sqrt(D_K)
    std::vector<float> g_q(D_K, 0.0f);
    for (int j = 0; j < n_tokens; j++)
        for (int c = 0; c < D_K; c++) g_q[c] += g_s[j] * inv_root * f.K(j, c);

    // every position: its key and value gradient, through W_K and W_V to its embedding row
    for (int j = 0; j < n_tokens; j++) {
        std::vector<float> g_k(D_K), g_v(D_V);
        for (int c = 0; c < D_K; c++) g_k[c] = g_s[j] * inv_root * f.q(0, c);
        for (int c = 0; c < D_V; c++) g_v[c] = f.weights(0, j) * g_z[c];
        add_outer(grad.W_K, f.X.row(j), g_k);
        add_outer(grad.W_V, f.X.row(j), g_v);
        std::vector<float> from_k = row_times_transposed(g_k, p.W_K);
        std::vector<float> from_v = row_times_transposed(g_v, p.W_V);
        for (int r = 0; r < D; r++) grad.embeddings(tokens[j], r) += from_k[r] + from_v[r];
    }

    // the query came from the last position only
    add_outer(grad.W_Q, f.X.row(n_tokens - 1), g_q);
    std::vector<float> from_q = row_times_transposed(g_q, p.W_Q);
    for (int r = 0; r < D; r++) grad.embeddings(tokens[n_tokens - 1], r) += from_q[r];
    (void)row_times;  // kept for later exercises
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
