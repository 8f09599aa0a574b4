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

using Row8 = std::array<float, D>;

namespace {

// The query's part: W_Q and the last position's embedding row.
void query_part(const Params& P, const Forward& F, const std::vector<int>& toks, const std::vector<float>& dq,
                Params& G) {
    const std::size_t last = toks.size() - 1;
    std::size_t i = 0;
    while (i < std::size_t(D)) {
        std::size_t k = 0;
        while (k < std::size_t(D_K)) {
            G.W_Q(int(i), int(k)) += F.X(int(last), int(i)) * dq[k];
            ++k;
        }
        G.embeddings(toks[last], int(i)) += dot(dq.data(), P.W_Q.row(int(i)), D_K);
        ++i;
    }
}

// Keys' and values' part: every position's embedding row, W_K and W_V.
void key_value_part(const Params& P, const Forward& F, const std::vector<int>& toks, const std::vector<float>& ds,
                    const std::vector<float>& dctx, float rs, Params& G) {
    Row8 viaKey, viaVal;
    for (int i = 0; i < D; ++i) {
        float kacc = 0.0f, vacc = 0.0f;
        for (int k = 0; k < D_V; ++k) vacc += dctx[std::size_t(k)] * P.W_V(i, k);
        for (int k = 0; k < D_K; ++k) kacc += F.q(0, k) * rs * P.W_K(i, k);
        viaKey[std::size_t(i)] = kacc;
        viaVal[std::size_t(i)] = vacc;
    }
    Row8 sumSX{}, sumAX{};
    for (std::size_t t = 0; t < toks.size(); ++t) {
        const float a = F.weights(0, int(t));
        const float d = ds[t];
        for (std::size_t i = 0; i < std::size_t(D); ++i) {
            sumAX[i] += a * F.X(int(t), int(i));
            sumSX[i] += d * F.X(int(t), int(i));
            G.embeddings(toks[t], int(i)) += d * viaKey[i] + a * viaVal[i];
        }
    }
    for (int i = 0; i < D; ++i) {
        for (int k = 0; k < D_V; ++k) G.W_V(i, k) += sumAX[std::size_t(i)] * dctx[std::size_t(k)];
        for (int k = 0; k < D_K; ++k) G.W_K(i, k) += sumSX[std::size_t(i)] * (F.q(0, k) * rs);
    }
}

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size());
    const int words = p.bias.cols;
    const float rs = 1.0f / std::sqrt(float(D_K));

    std::vector<float> dlog(std::size_t(words), 0.0f);
    int v = 0;
    while (v < words) {
        const float onehot = v == target ? 1.0f : 0.0f;
        dlog[std::size_t(v)] = (f.probs(0, v) - onehot) * loss_weight;
        grad.bias(0, v) += dlog[std::size_t(v)];
        ++v;
    }
    std::vector<float> dctx(D_V);
    for (int r = 0; r < D_V; ++r) {
        for (int c = 0; c < words; ++c) grad.W_out(r, c) += f.z(0, r) * dlog[std::size_t(c)];
        dctx[std::size_t(r)] = dot(dlog.data(), p.W_out.row(r), words);
    }

    std::vector<float> dw(static_cast<std::size_t>(len)), ds(static_cast<std::size_t>(len));
    for (int j = 0; j < len; ++j) dw[std::size_t(j)] = dot(dctx.data(), f.V.row(j), D_V);
    const float mean = dot(f.weights.row(0), dw.data(), len);
    for (int j = 0; j < len; ++j) ds[std::size_t(j)] = f.weights(0, j) * (dw[std::size_t(j)] - mean);

    std::vector<float> dq(D_K, 0.0f);
    for (int j = 0; j < len; ++j)
        for (int c = 0; c < D_K; ++c) dq[std::size_t(c)] += ds[std::size_t(j)] * f.K(j, c) * rs;

    // query first (the order does not matter: each adds into grad)
    query_part(p, f, tokens, dq, grad);
    key_value_part(p, f, tokens, ds, dctx, rs, grad);
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
