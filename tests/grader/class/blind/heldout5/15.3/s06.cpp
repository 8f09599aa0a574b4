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

#include <array>

// Gradient block by block: each block gets its own function, and the shared
// pieces (dlogits, dz, dscores) are recomputed where they are needed.

using Vec = std::vector<float>;

static Vec dLogits(const Forward& f, int target, float w) {
    Vec g(f.probs.cols);
    for (int i = 0; i < f.probs.cols; i++) g[i] = w * f.probs(0, i);
    g[target] -= w;
    return g;
}

static Vec dContext(const Params& p, const Vec& gl) {
    Vec g(D_V, 0.0f);
    for (int r = 0; r < D_V; r++) g[r] = dot(p.W_out.row(r), gl.data(), int(gl.size()));
    return g;
}

static Vec dScores(const Forward& f, const Vec& gz) {
    const int T = f.weights.cols;
    Vec ga(T), gs(T);
    float m = 0;
    for (int j = 0; j < T; j++) { ga[j] = dot(gz.data(), f.V.row(j), D_V); m += ga[j] * f.weights(0, j); }
    for (int j = 0; j < T; j++) gs[j] = f.weights(0, j) * (ga[j] - m);
    return gs;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int T = int(tokens.size());
    const Vec gl = dLogits(f, target, loss_weight);
    const Vec gz = dContext(p, gl);
    const Vec gs = dScores(f, gz);

    // bias and W_out
    for (int i = 0; i < int(gl.size()); i++) {
        grad.bias(0, i) += gl[i];
        for (int r = 0; r < D_V; r++) grad.W_out(r, i) += f.z(0, r) * gl[i];
    }

    // W_V and the embeddings through the values
    for (int j = 0; j < T; j++) {
        const float a = f.weights(0, j);
        for (int r = 0; r < D; r++) {
            std::array<float, D_V> dv{};
            for (int c = 0; c < D_V; c++) dv[c] = a * gz[c];
            for (int c = 0; c < D_V; c++) grad.W_V(r, c) += f.X(j, r) * dv[c];
            grad.embeddings(tokens[j], r) += dot(dv.data(), p.W_V.row(r), D_V);
        }
    }

    // W_K and the embeddings through the keys
    for (int j = 0; j < T; j++) {
        std::array<float, D_K> dk{};
        for (int c = 0; c < D_K; c++) dk[c] = gs[j] * f.q(0, c);
        for (int r = 0; r < D; r++) {
            for (int c = 0; c < D_K; c++) grad.W_K(r, c) += f.X(j, r) * dk[c];
            grad.embeddings(tokens[j], r) += dot(dk.data(), p.W_K.row(r), D_K);
        }
    }

    // W_Q and the last embedding through the query
    std::array<float, D_K> dq{};
    for (int j = 0; j < T; j++)
        for (int c = 0; c < D_K; c++) dq[c] += gs[j] * f.K(j, c);
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += f.X(T - 1, r) * dq[c];
        grad.embeddings(tokens[T - 1], r) += dot(dq.data(), p.W_Q.row(r), D_K);
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
