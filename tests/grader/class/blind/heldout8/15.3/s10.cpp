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
#include <array>

namespace {
const int NK = D_K, NV = D_V;

double dotRow(const std::array<double, 8>& g, const Matrix& M, int row, int n) {
    double total = 0;
    int c = 0;
    while (c < n) {
        total += g[c] * M(row, c);
        ++c;
    }
    return total;
}

// output layer last in the file, called first
void outputLayer(const Forward& f, const std::vector<double>& gl, Params& grad);
}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int T = static_cast<int>(tokens.size());
    const int nw = p.bias.cols;

    std::vector<double> gl(nw);
    for (int w = 0; w < nw; w++) {
        double hot = 0.0;
        if (w == target) hot = 1.0;
        gl[w] = (double(f.probs(0, w)) - hot) * loss_weight;
    }
    outputLayer(f, gl, grad);

    std::array<double, 8> gz{};
    for (int w = 0; w < nw; w++)
        for (int r = 0; r < NV; r++) gz[r] += gl[w] * p.W_out(r, w);

    std::vector<double> ga(T), gs(T);
    double mean = 0;
    for (int t = 0; t < T; t++) ga[t] = dotRow(gz, f.V, t, NV);
    for (int t = 0; t < T; t++) mean += f.weights(0, t) * ga[t];

    const double inv = 1.0 / std::sqrt(static_cast<double>(NK));
    std::array<double, 8> gq{};
    for (int t = 0; t < T; t++) {
        gs[t] = f.weights(0, t) * (ga[t] - mean) * inv;
        for (int c = 0; c < NK; c++) gq[c] += gs[t] * f.K(t, c);
    }

    int t = 0;
    while (t < T) {
        std::array<double, 8> gk{}, gv{};
        for (int c = 0; c < NV; c++) gv[c] = f.weights(0, t) * gz[c];
        for (int c = 0; c < NK; c++) gk[c] = gs[t] * f.q(0, c);
        const bool last = (t == T - 1);
        for (int r = 0; r < D; r++) {
            const double xr = f.X(t, r);
            double ge = dotRow(gk, p.W_K, r, NK);
            ge = ge + dotRow(gv, p.W_V, r, NV);
            for (int c = 0; c < NV; c++) grad.W_V(r, c) += float(xr * gv[c]);
            for (int c = 0; c < NK; c++) grad.W_K(r, c) += float(xr * gk[c]);
            if (last) {
                for (int c = 0; c < NK; c++) grad.W_Q(r, c) += float(xr * gq[c]);
                ge += dotRow(gq, p.W_Q, r, NK);
            }
            grad.embeddings(tokens[t], r) += float(ge);
        }
        t++;
    }
}

namespace {
void outputLayer(const Forward& f, const std::vector<double>& gl, Params& grad) {
    for (size_t w = 0; w < gl.size(); w++) {
        grad.bias(0, int(w)) += float(gl[w]);
        for (int r = 0; r < NV; r++) grad.W_out(r, int(w)) += float(f.z(0, r) * gl[w]);
    }
}
}  // namespace

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
