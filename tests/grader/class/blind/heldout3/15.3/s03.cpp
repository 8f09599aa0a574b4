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
typedef std::vector<float> Vec;
#define EMB(j, r) grad.embeddings(tokens[j], r)

static float dotv(const float* a, const float* b, int n) {
    float s = 0.0f;
    int i = 0;
    while (i < n) {
        s += a[i] * b[i];
        i++;
    }
    return s;
}

// W_K and W_V from the sums over positions of ds_j x_j and a_j x_j
static void key_value_weights(const Vec& sds, const Vec& sa, const Forward& f, const Vec& dz, float half,
                              Params& grad) {
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += sa[r] * dz[c];
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += sds[r] * (f.q(0, c) * half);
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int T = int(tokens.size());
    const int V = p.bias.cols;
    const float half = 1.0f / std::sqrt(float(D_K));
    Vec dl(V), dz(D_V), da(T), ds(T), dq(D_K, 0.0f);

    int i = 0;
    while (i < V) {
        dl[i] = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
        grad.bias(0, i) += dl[i];
        i++;
    }
    for (int r = 0; r < D_V; r++) {
        for (i = 0; i < V; i++) grad.W_out(r, i) += f.z(0, r) * dl[i];
        dz[r] = dotv(dl.data(), p.W_out.row(r), V);
    }

    for (int j = 0; j < T; j++) da[j] = dotv(dz.data(), f.V.row(j), D_V);
    const float through = dotv(f.weights.row(0), da.data(), T);
    for (int j = 0; j < T; j++) ds[j] = f.weights(0, j) * (da[j] - through);

    Vec kback(D, 0.0f), vback(D, 0.0f), sds(D, 0.0f), sa(D, 0.0f);
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_V; c++) vback[r] += dz[c] * p.W_V(r, c);
        for (int c = 0; c < D_K; c++) kback[r] += f.q(0, c) * half * p.W_K(r, c);
    }
    int j = 0;
    while (j < T) {
        for (int c = 0; c < D_K; c++) dq[c] += ds[j] * f.K(j, c) * half;
        for (int r = 0; r < D; r++) {
            sa[r] += f.weights(0, j) * f.X(j, r);
            sds[r] += ds[j] * f.X(j, r);
            EMB(j, r) += ds[j] * kback[r] + f.weights(0, j) * vback[r];
        }
        j++;
    }
    key_value_weights(sds, sa, f, dz, half, grad);

    for (int r = 0; r < D; r++) {
        EMB(T - 1, r) += dotv(dq.data(), p.W_Q.row(r), D_K);
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += f.X(T - 1, r) * dq[c];
    }
}
#undef EMB

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
