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

#define FOR(i, n) for (int i = 0; i < (n); ++i)

using DVec = std::array<float, D>;

struct Back {
    std::vector<float> logit, weight, score;
    std::array<float, D_V> ctx{};
    std::array<float, D_K> query{};
};

// the query gets every key's share, scaled
static void queryPart(const Forward& f, Back& b, float k, int T) {
    FOR(j, T) FOR(c, D_K) b.query[c] += b.score[j] * f.K(j, c) * k;
}

// W_K, W_V from the sums over positions (done after the embeddings, they do not depend on each other)
static void projections(const Forward& f, const Back& b, const DVec& sk, const DVec& sv, float k, Params& grad) {
    FOR(r, D) {
        FOR(c, D_V) grad.W_V(r, c) += sv[r] * b.ctx[c];
        FOR(c, D_K) grad.W_K(r, c) += sk[r] * (f.q(0, c) * k);
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int T = int(tokens.size());
    const int vocab = p.bias.cols;
    const float k = 1.0f / std::sqrt(float(D_K));
    Back b;
    b.logit.resize(vocab);
    b.weight.resize(T);
    b.score.resize(T);

    FOR(i, vocab) {
        const float hot = (i == target) ? 1.0f : 0.0f;
        b.logit[i] = (f.probs(0, i) - hot) * loss_weight;
    }
    FOR(r, D_V) FOR(i, vocab) grad.W_out(r, i) += f.z(0, r) * b.logit[i];
    FOR(i, vocab) grad.bias(0, i) += b.logit[i];
    int r = 0;
    while (r < D_V) {
        float s = 0.0f;
        FOR(i, vocab) s += b.logit[i] * p.W_out(r, i);
        b.ctx[r] = s;
        ++r;
    }
    FOR(j, T) {
        float s = 0.0f;
        FOR(c, D_V) s += b.ctx[c] * f.V(j, c);
        b.weight[j] = s;
    }
    float mean = 0.0f;
    FOR(j, T) mean += f.weights(0, j) * b.weight[j];
    FOR(j, T) b.score[j] = f.weights(0, j) * (b.weight[j] - mean);
    queryPart(f, b, k, T);

    DVec kb, vb, sk{}, sv{};
    FOR(rr, D) {
        float s1 = 0.0f, s2 = 0.0f;
        FOR(c, D_V) s2 += b.ctx[c] * p.W_V(rr, c);
        FOR(c, D_K) s1 += f.q(0, c) * k * p.W_K(rr, c);
        kb[rr] = s1;
        vb[rr] = s2;
    }
    int j = 0;
    while (j < T) {
        const float a = f.weights(0, j), ds = b.score[j];
        float* row = grad.embeddings.row(tokens[j]);
        FOR(rr, D) {
            sv[rr] += a * f.X(j, rr);
            sk[rr] += ds * f.X(j, rr);
            row[rr] += ds * kb[rr] + a * vb[rr];
        }
        ++j;
    }
    projections(f, b, sk, sv, k, grad);

    FOR(rr, D) {
        float s = 0.0f;
        FOR(c, D_K) s += b.query[c] * p.W_Q(rr, c);
        grad.embeddings(tokens[T - 1], rr) += s;
        FOR(c, D_K) grad.W_Q(rr, c) += f.X(T - 1, rr) * b.query[c];
    }
}
#undef FOR

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
