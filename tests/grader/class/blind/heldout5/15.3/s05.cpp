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

// one row of W_out: its gradient, and what it sends back to the context
static float out_row(size_t r, const Params& p, const Forward& f, const std::vector<float>& g, Params& grad) {
    float back = 0;
    size_t i = 0;
    while (i < g.size()) {
        grad.W_out(int(r), int(i)) += f.z(0, int(r)) * g[i];
        back += g[i] * p.W_out(int(r), int(i));
        ++i;
    }
    return back;
}

// one row r of W_K and W_V for position j, returning the embedding gradient of that entry
static float kv_row(size_t j, size_t r, float gs, const float* gz, const Params& p, const Forward& f, Params& grad) {
    const float x = f.X(int(j), int(r)), a = f.weights(0, int(j));
    float e = 0;
    size_t k = 0;
    while (k < size_t(D_K)) {
        grad.W_K(int(r), int(k)) += x * gs * f.q(0, int(k));
        e += gs * f.q(0, int(k)) * p.W_K(int(r), int(k));
        ++k;
    }
    k = 0;
    while (k < size_t(D_V)) {
        grad.W_V(int(r), int(k)) += x * a * gz[k];
        e += a * gz[k] * p.W_V(int(r), int(k));
        ++k;
    }
    return e;
}

// one row r of W_Q from the last position
static void q_row(size_t r, size_t last, const float* gq, const Forward& f, Params& grad) {
    size_t k = 0;
    while (k < size_t(D_K)) {
        grad.W_Q(int(r), int(k)) += f.X(int(last), int(r)) * gq[k];
        ++k;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad)
{
    const size_t n = tokens.size();
    const size_t vocab = size_t(p.bias.cols);
    std::vector<float> g_logit(vocab), g_weight(n), g_score(n);
    float g_ctx[D_V] = {0}, g_query[D_K] = {0};

    size_t i = 0;
    while (i < vocab) {
        g_logit[i] = f.probs(0, int(i)) * loss_weight;
        if (int(i) == target) g_logit[i] -= loss_weight;
        grad.bias(0, int(i)) += g_logit[i];
        ++i;
    }
    for (size_t r = 0; r < size_t(D_V); ++r) g_ctx[r] = out_row(r, p, f, g_logit, grad);

    float mean = 0;
    for (size_t j = 0; j < n; ++j) {
        g_weight[j] = 0;
        for (size_t k = 0; k < size_t(D_V); ++k) g_weight[j] += g_ctx[k] * f.V(int(j), int(k));
        mean += f.weights(0, int(j)) * g_weight[j];
    }
    const float half = 1.0f / sqrtf(D_K);
    for (size_t j = 0; j < n; ++j) g_score[j] = f.weights(0, int(j)) * (g_weight[j] - mean) * half;
    for (size_t j = 0; j < n; ++j)
        for (size_t k = 0; k < size_t(D_K); ++k) g_query[k] += g_score[j] * f.K(int(j), int(k));

    for (size_t r = 0; r < size_t(D); ++r) q_row(r, n - 1, g_query, f, grad);

    for (size_t j = 0; j < n; ++j)
        for (size_t r = 0; r < size_t(D); ++r)
            grad.embeddings(tokens[j], int(r)) += kv_row(j, r, g_score[j], g_ctx, p, f, grad);
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
