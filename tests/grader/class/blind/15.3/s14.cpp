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
// one row of the output layer: W_out's row r, and returns d z_r
static float output_row(const Params& p, const Forward& f, const std::vector<float>& dlog, size_t r,
                        Params& grad) {
    float acc = 0.0f;
    size_t v = 0;
    while (v < dlog.size()) {
        acc += dlog[v] * p.W_out(int(r), int(v));
        grad.W_out(int(r), int(v)) += f.z(0, int(r)) * dlog[v];
        ++v;
    }
    return acc;
}

// one position's key and value: W_K, W_V and the embedding row it read
static void position_row(const Params& p, const Forward& f, size_t j, float dscore, const float* dctx, int token,
                         Params& grad) {
    size_t r = 0;
    while (r < size_t(D)) {
        const float x = f.X(int(j), int(r));
        float demb = 0.0f;
        size_t c = 0;
        while (c < size_t(D_K)) {
            const float dkey = dscore * f.q(0, int(c));
            grad.W_K(int(r), int(c)) += x * dkey;
            demb += dkey * p.W_K(int(r), int(c));
            ++c;
        }
        c = 0;
        while (c < size_t(D_V)) {
            const float dval = f.weights(0, int(j)) * dctx[c];
            grad.W_V(int(r), int(c)) += x * dval;
            demb += dval * p.W_V(int(r), int(c));
            ++c;
        }
        grad.embeddings(token, int(r)) += demb;
        ++r;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const size_t len = tokens.size();
    const float inv = 1.0f / std::sqrt(static_cast<float>(D_K));
    std::vector<float> dlog(static_cast<size_t>(f.probs.cols));
    size_t v = 0;
    while (v < dlog.size()) {
        float g = f.probs(0, int(v));
        if (int(v) == target) g -= 1.0f;
        dlog[v] = g * loss_weight;
        ++v;
    }
    float dctx[D_V];
    size_t r = 0;
    while (r < size_t(D_V)) {
        dctx[r] = output_row(p, f, dlog, r, grad);
        ++r;
    }
    for (v = 0; v < dlog.size(); ++v) grad.bias(0, int(v)) += dlog[v];

    std::vector<float> dattn(len), dscore(len);
    float wsum = 0.0f;
    size_t j = 0;
    while (j < len) {
        float acc = 0.0f;
        for (size_t c = 0; c < size_t(D_V); ++c) acc += dctx[c] * f.V(int(j), int(c));
        dattn[j] = acc;
        wsum += acc * f.weights(0, int(j));
        ++j;
    }
    for (j = 0; j < len; ++j) dscore[j] = f.weights(0, int(j)) * (dattn[j] - wsum) * inv;

    float dquery[D_K] = {};
    j = 0;
    while (j < len) {
        for (size_t c = 0; c < size_t(D_K); ++c) dquery[c] += dscore[j] * f.K(int(j), int(c));
        position_row(p, f, j, dscore[j], dctx, tokens[j], grad);
        ++j;
    }
    const size_t last = len - 1;
    r = 0;
    while (r < size_t(D)) {
        float demb = 0.0f;
        for (size_t c = 0; c < size_t(D_K); ++c) {
            grad.W_Q(int(r), int(c)) += f.X(int(last), int(r)) * dquery[c];
            demb += dquery[c] * p.W_Q(int(r), int(c));
        }
        grad.embeddings(tokens[last], int(r)) += demb;
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
