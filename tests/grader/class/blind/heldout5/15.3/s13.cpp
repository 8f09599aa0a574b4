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

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size());
    const int nout = f.logits.cols;
    float* gl = new float[nout];
    float* gctx = new float[D_V]();
    float* gatt = new float[len]();
    float* gsc = new float[len];
    float* gq = new float[D_K]();
    float* gx = new float[len * D]();

    for (int o = nout - 1; o >= 0; --o) {
        gl[o] = (f.probs(0, o) - (o == target)) * loss_weight;
        grad.bias(0, o) += gl[o];
    }
    for (int r = 0; r < D_V; ++r)
        for (int o = 0; o < nout; ++o) {
            gctx[r] += p.W_out(r, o) * gl[o];
            grad.W_out(r, o) += f.z(0, r) * gl[o];
        }

    float wmean = 0.f;
    for (int s = 0; s < len; ++s) {
        for (int c = 0; c < D_V; ++c) gatt[s] += f.V(s, c) * gctx[c];
        wmean += f.weights(0, s) * gatt[s];
    }
    const float rs = 1.f / std::sqrt(float(D_K));
    for (int s = 0; s < len; ++s) gsc[s] = f.weights(0, s) * (gatt[s] - wmean) * rs;
    for (int s = 0; s < len; ++s)
        for (int c = 0; c < D_K; ++c) gq[c] += gsc[s] * f.K(s, c);

    auto one_position = [&](int s) {
        float* row = gx + s * D;
        for (int c = 0; c < D_V; ++c) {
            const float gv = f.weights(0, s) * gctx[c];
            for (int r = 0; r < D; ++r) {
                row[r] += gv * p.W_V(r, c);
                grad.W_V(r, c) += f.X(s, r) * gv;
            }
        }
        for (int c = 0; c < D_K; ++c) {
            const float gk = gsc[s] * f.q(0, c);
            for (int r = 0; r < D; ++r) {
                row[r] += gk * p.W_K(r, c);
                grad.W_K(r, c) += f.X(s, r) * gk;
            }
        }
    };
    for (int s = len - 1; s >= 0; --s) one_position(s);

    for (int c = 0; c < D_K; ++c)
        for (int r = 0; r < D; ++r) {
            gx[(len - 1) * D + r] += gq[c] * p.W_Q(r, c);
            grad.W_Q(r, c) += f.X(len - 1, r) * gq[c];
        }
    for (int s = 0; s < len; ++s)
        for (int r = 0; r < D; ++r) grad.embeddings(tokens[s], r) += gx[s * D + r];

    delete[] gl;
    delete[] gctx;
    delete[] gatt;
    delete[] gsc;
    delete[] gq;
    delete[] gx;
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
