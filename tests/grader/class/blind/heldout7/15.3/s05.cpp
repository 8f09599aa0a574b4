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

#define ROW(pos) f.X.row(pos)

namespace colour_grad {

using Col = std::array<float, D>;

struct Upstream {
    std::vector<float> dsc;   // score gradients
    std::vector<float> dz;    // context gradient
    std::vector<float> dq;    // query gradient
};

void query_part(const Params& p, const std::vector<int>& ids, const Forward& f, const Upstream& u, Params& g);
void key_value_part(const Params& p, const std::vector<int>& ids, const Forward& f, const Upstream& u, float s,
                    Params& g);

// output layer and attention: everything up to the score gradients
Upstream top(const Params& p, const Forward& f, int target, float lw, int n, float s, Params& g) {
    const int nv = p.bias.cols;
    Upstream u;
    std::vector<float> gl(nv);
    int o = 0;
    while (o < nv) {
        gl[o] = (f.probs(0, o) - (o == target ? 1.0f : 0.0f)) * lw;
        g.bias(0, o) += gl[o];
        o++;
    }
    u.dz.resize(D_V);
    for (int m = 0; m < D_V; m++) {
        u.dz[m] = dot(gl.data(), p.W_out.row(m), nv);
        for (o = 0; o < nv; o++) g.W_out(m, o) += f.z(0, m) * gl[o];
    }
    std::vector<float> ga(n);
    for (int j = 0; j < n; j++) ga[j] = dot(u.dz.data(), f.V.row(j), D_V);
    const float avg = dot(f.weights.row(0), ga.data(), n);
    u.dsc.resize(n);
    for (int j = 0; j < n; j++) u.dsc[j] = f.weights(0, j) * (ga[j] - avg);
    u.dq.assign(D_K, 0.0f);
    int j = 0;
    while (j < n) {
        for (int m = 0; m < D_K; m++) u.dq[m] += u.dsc[j] * f.K(j, m) * s;
        j++;
    }
    return u;
}

}  // namespace colour_grad

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const float s = 1.0f / std::sqrt(float(D_K));
    const colour_grad::Upstream u = colour_grad::top(p, f, target, loss_weight, int(tokens.size()), s, grad);
    colour_grad::query_part(p, tokens, f, u, grad);
    colour_grad::key_value_part(p, tokens, f, u, s, grad);
}

// the last position's query: W_Q and its embedding row
void colour_grad::query_part(const Params& p, const std::vector<int>& ids, const Forward& f, const Upstream& u,
                             Params& g) {
    const int last = int(ids.size()) - 1;
    for (int i = 0; i < D; i++) {
        for (int m = 0; m < D_K; m++) g.W_Q(i, m) += ROW(last)[i] * u.dq[m];
        g.embeddings(ids[last], i) += dot(u.dq.data(), p.W_Q.row(i), D_K);
    }
}

// keys and values at every position
void colour_grad::key_value_part(const Params& p, const std::vector<int>& ids, const Forward& f, const Upstream& u,
                                 float s, Params& g) {
    Col kb{}, vb{}, sx{}, ax{};
    int i = 0;
    while (i < D) {
        for (int m = 0; m < D_V; m++) vb[i] += u.dz[m] * p.W_V(i, m);
        for (int m = 0; m < D_K; m++) kb[i] += f.q(0, m) * s * p.W_K(i, m);
        ++i;
    }
    for (size_t j = 0; j < ids.size(); j++) {
        const float a = f.weights(0, int(j)), d = u.dsc[j];
        for (i = 0; i < D; i++) {
            ax[i] += a * ROW(int(j))[i];
            sx[i] += d * ROW(int(j))[i];
            g.embeddings(ids[j], i) += d * kb[i] + a * vb[i];
        }
    }
    for (i = 0; i < D; i++) {
        for (int m = 0; m < D_V; m++) g.W_V(i, m) += ax[i] * u.dz[m];
        for (int m = 0; m < D_K; m++) g.W_K(i, m) += sx[i] * (f.q(0, m) * s);
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
