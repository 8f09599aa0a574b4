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

namespace {
const bool kVerbose = false;
}

// gradient of the loss for one prefix, added into grad
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int len = tokens.size();
    const int outs = p.bias.cols;
    const float inv = 1.0f / sqrtf(D_K);
    std::array<float, D_V> gz{};
    std::array<float, D_K> gq{};
    std::vector<float> gout(outs), gw(len), gsc(len);

    for (int o = 0; o < outs; o++) {
        gout[o] = loss_weight * f.probs(0, o);
        gout[o] = gout[o] - (o == target ? loss_weight : 0.0f);
        grad.bias(0, o) = grad.bias(0, o) + gout[o];
    }
    for (int c = 0; c < D_V; c++) {
        int o = 0;
        while (o < outs) {
            gz[c] = gz[c] + gout[o] * p.W_out(c, o);
            grad.W_out(c, o) = grad.W_out(c, o) + f.z(0, c) * gout[o];
            o++;
        }
    }

    float centre = 0;
    for (int s = 0; s < len; s++) {
        gw[s] = 0;
        for (int c = 0; c < D_V; c++) gw[s] = gw[s] + gz[c] * f.V(s, c);
        centre = centre + f.weights(0, s) * gw[s];
    }
    for (int s = 0; s < len; s++) gsc[s] = f.weights(0, s) * (gw[s] - centre) * inv;

    // keys and values first
    auto key_value_part = [&](int s, int r) {
        float back = 0;
        const float x = f.X(s, r), a = f.weights(0, s);
        for (int c = 0; c < D_K; c++) {
            grad.W_K(r, c) = grad.W_K(r, c) + x * gsc[s] * f.q(0, c);
            back = back + gsc[s] * f.q(0, c) * p.W_K(r, c);
        }
        for (int c = 0; c < D_V; c++) {
            grad.W_V(r, c) = grad.W_V(r, c) + x * a * gz[c];
            back = back + a * gz[c] * p.W_V(r, c);
        }
        return back;
    };
    for (int s = 0; s < len; s++)
        for (int r = 0; r < D; r++) grad.embeddings(tokens[s], r) += key_value_part(s, r);

    for (int s = 0; s < len; s++)
        for (int c = 0; c < D_K; c++) gq[c] = gq[c] + gsc[s] * f.K(s, c);
    if (kVerbose) std::printf("dq %g %g %g %g\n", gq[0], gq[1], gq[2], gq[3]);
    // the query: W_Q only
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) = grad.W_Q(r, c) + f.X(len - 1, r) * gq[c];
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
