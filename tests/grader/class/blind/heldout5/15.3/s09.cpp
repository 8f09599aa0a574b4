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

using Row = std::vector<float>;
#define AT(v, i) (v)[static_cast<size_t>(i)]

// the query's share: W_Q and the last embedding row
static void query_part(const Params& p, const Forward& f, const std::vector<int>& tokens, const Row& dq, Params& grad) {
    const int last = int(tokens.size()) - 1;
    int r = 0;
    while (r < D) {
        float back = 0.0f;
        for (int c = 0; c < D_K; c++) {
            grad.W_Q(r, c) += f.X(last, r) * AT(dq, c);
            back += AT(dq, c) * p.W_Q(r, c);
        }
        grad.embeddings(tokens[last], r) += back;
        r++;
    }
}

// the logits' share: bias, W_out; returns the context's gradient
static Row output_part(const Params& p, const Forward& f, int target, float w, Params& grad) {
    const int V = p.bias.cols;
    Row dl(V);
    for (int i = 0; i < V; i++) {
        const float hot = (i == target) ? 1.0f : 0.0f;
        AT(dl, i) = (f.probs(0, i) - hot) * w;
        grad.bias(0, i) += AT(dl, i);
    }
    Row dz(D_V);
    for (int r = 0; r < D_V; r++) {
        for (int i = 0; i < V; i++) grad.W_out(r, i) += f.z(0, r) * AT(dl, i);
        AT(dz, r) = dot(dl.data(), p.W_out.row(r), V);
    }
    return dz;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = int(tokens.size());
    const float inv = 1.0f / std::sqrt(float(D_K));
    const Row dz = output_part(p, f, target, loss_weight, grad);

    Row da(n), ds(n);
    for (int j = 0; j < n; j++) AT(da, j) = dot(dz.data(), f.V.row(j), D_V);
    const float mean = dot(f.weights.row(0), da.data(), n);
    int j = 0;
    while (j < n) {
        AT(ds, j) = f.weights(0, j) * (AT(da, j) - mean);
        ++j;
    }

    // position-independent backs through W_K and W_V
    std::array<float, D> kback{}, vback{};
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_V; c++) vback[r] += dz[c] * p.W_V(r, c);
        for (int c = 0; c < D_K; c++) kback[r] += f.q(0, c) * inv * p.W_K(r, c);
    }
    std::array<float, D> ax{}, sx{};
    for (j = 0; j < n; j++) {
        const float a = f.weights(0, j);
        const float s = AT(ds, j);
        for (int r = 0; r < D; r++) {
            const float x = f.X(j, r);
            ax[r] += a * x;
            sx[r] += s * x;
            grad.embeddings(tokens[j], r) += s * kback[r] + a * vback[r];
        }
    }
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += ax[r] * dz[c];
        for (int c = 0; c < D_K; c++) {
            const float qc = f.q(0, c) * inv;
            grad.W_K(r, c) += sx[r] * qc;
        }
    }

    Row dq(D_K, 0.0f);
    for (j = 0; j < n; j++)
        for (int c = 0; c < D_K; c++) AT(dq, c) += AT(ds, j) * f.K(j, c) * inv;
    query_part(p, f, tokens, dq, grad);
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
