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
#include <array>

// TODO: write backward (the statement above says what it adds into grad)

// the output layer: bias, W_out, and the context's gradient
static std::array<float, D_V> back_output(const Params& p, const Forward& f, const std::vector<float>& gl,
                                          Params& grad) {
    std::array<float, D_V> gc;
    for (int r = 0; r < D_V; ++r) {
        float s = 0.0f;
        int v = 0;
        while (v < int(gl.size())) {
            grad.W_out(r, v) += f.z(0, r) * gl[v];
            s += gl[v] * p.W_out(r, v);
            ++v;
        }
        gc[r] = s;
    }
    for (size_t v = 0; v < gl.size(); ++v) grad.bias(0, int(v)) += gl[v];
    return gc;
}

// key and value of one position: W_K, W_V and that token's embedding row
static void back_position(const Params& p, const Forward& f, int j, int tok, float gs,
                          const std::array<float, D_V>& gc, Params& grad) {
    int r = 0;
    while (r < D) {
        const float xr = f.X(j, r);
        float ge = 0.0f;
        for (int c = 0; c < D_K; ++c) {
            grad.W_K(r, c) += xr * (gs * f.q(0, c));
            ge += gs * f.q(0, c) * p.W_K(r, c);
        }
        for (int c = 0; c < D_V; ++c) {
            grad.W_V(r, c) += xr * (f.weights(0, j) * gc[c]);
            ge += f.weights(0, j) * gc[c] * p.W_V(r, c);
        }
        grad.embeddings(tok, r) += ge;
        ++r;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int L = static_cast<int>(tokens.size());
    const float k = 1.0f / std::sqrt(static_cast<float>(D_K));
    std::vector<float> gl(f.probs.cols);
    for (int v = 0; v < f.probs.cols; ++v) {
        float t = f.probs(0, v);
        if (v == target) t -= 1.0f;
        gl[v] = t * loss_weight;
    }
    const std::array<float, D_V> gc = back_output(p, f, gl, grad);

    std::vector<float> ga(L), gs(L);
    float wsum = 0.0f;
    int j = 0;
    while (j < L) {
        float s = 0.0f;
        for (int c = 0; c < D_V; ++c) s += gc[c] * f.V(j, c);
        ga[j] = s;
        wsum += s * f.weights(0, j);
        ++j;
    }
    for (j = 0; j < L; ++j) gs[j] = f.weights(0, j) * (ga[j] - wsum) * k;

    std::array<float, D_K> gq{};
    for (j = 0; j < L; ++j) {
        for (int c = 0; c < D_K; ++c) gq[c] += gs[j] * f.K(j, c);
        back_position(p, f, j, tokens[j], gs[j], gc, grad);
    }
    for (int r = 0; r < D; ++r) {
        float ge = 0.0f;
        for (int c = 0; c < D_K; ++c) {
            ge += gq[c] * p.W_Q(r, c);
            grad.W_Q(r, c) += f.X(L - 1, r) * gq[c];
        }
        grad.embeddings(tokens[L - 1], r) += ge;
    }
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
