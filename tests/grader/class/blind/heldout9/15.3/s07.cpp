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
namespace {

typedef std::vector<double> Vec;

// dL/dlogits for one prefix, already times the loss weight
Vec logit_grad(const Forward& f, int target, double w) {
    Vec g(f.probs.cols);
    for (int k = 0; k < f.probs.cols; ++k) g[k] = w * (f.probs(0, k) - (k == target));
    return g;
}

Vec back_through_output(const Params& p, const Forward& f, const Vec& gl, Params& grad) {
    Vec gz(D_V, 0.0);
    for (int k = 0; k < (int)gl.size(); ++k) {
        grad.bias(0, k) += (float)gl[k];
        for (int m = 0; m < D_V; ++m) {
            grad.W_out(m, k) += (float)(f.z(0, m) * gl[k]);
            gz[m] += p.W_out(m, k) * gl[k];
        }
    }
    return gz;
}

// gradient of the (already scaled) scores
Vec back_through_attention(const Forward& f, const Vec& gz, int n) {
    Vec ga(n), gs(n);
    double mean = 0.0;
    for (int s = 0; s < n; ++s) {
        double acc = 0.0;
        for (int m = 0; m < D_V; ++m) acc += gz[m] * f.V(s, m);
        ga[s] = acc;
        mean += f.weights(0, s) * acc;
    }
    const double root = std::sqrt((double)D_K);
    for (int s = 0; s < n; ++s) gs[s] = f.weights(0, s) * (ga[s] - mean) / root;
    return gs;
}

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = (int)tokens.size();
    Vec gl = logit_grad(f, target, loss_weight);
    Vec gz = back_through_output(p, f, gl, grad);
    Vec gs = back_through_attention(f, gz, n);

    Vec gq(D_K, 0.0);
    for (int s = 0; s < n; ++s)
        for (int m = 0; m < D_K; ++m) gq[m] += gs[s] * f.K(s, m);

    for (int s = 0; s < n; ++s) {
        const int tok = tokens[s];
        for (int e = 0; e < D; ++e) {
            double back = 0.0;
            for (int m = 0; m < D_K; ++m) {
                const double gk = gs[s] * f.q(0, m);
                grad.W_K(e, m) += (float)(f.X(s, e) * gk);
                back += gk * p.W_K(e, m);
            }
            for (int m = 0; m < D_V; ++m) {
                const double gv = f.weights(0, s) * gz[m];
                grad.W_V(e, m) += (float)(f.X(s, e) * gv);
                back += gv * p.W_V(e, m);
            }
            if (s == n - 1)
                for (int m = 0; m < D_K; ++m) {
                    grad.W_Q(e, m) += (float)(f.X(s, e) * gq[m]);
                    back += gq[m] * p.W_Q(e, m);
                }
            grad.embeddings(tok, e) += (float)back;
        }
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
