#include <cmath>
#include <cstdio>
#include <vector>

#include "colour_recall.hpp"

namespace {
using Row = std::vector<float>;

float inner(const float* a, const float* b, int n) {
    float acc = 0.0f;
    int i = 0;
    while (i < n) { acc += a[i] * b[i]; ++i; }
    return acc;
}

// the query path: W_Q and the embedding of the last token
void through_query(const Params& p, const Forward& f, int last_tok, const Row& gq, Params& grad) {
    const int last = f.X.rows - 1;
    int r = 0;
    while (r < D) {
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += f.X(last, r) * gq[c];
        grad.embeddings(last_tok, r) += inner(gq.data(), p.W_Q.row(r), D_K);
        ++r;
    }
}
}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad) {
    const int n = (int)tokens.size();
    const int nv = p.bias.cols;
    const float k = 1.0f / std::sqrt(float(D_K));

    Row gl(nv);
    for (int i = 0; i < nv; i++) {
        gl[i] = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
        grad.bias(0, i) += gl[i];
    }
    Row gz(D_V);
    for (int r = 0; r < D_V; r++) {
        for (int i = 0; i < nv; i++) grad.W_out(r, i) += f.z(0, r) * gl[i];
        gz[r] = inner(gl.data(), p.W_out.row(r), nv);
    }

    Row ga(n), gs(n);
    for (int j = 0; j < n; j++) ga[j] = inner(gz.data(), f.V.row(j), D_V);
    const float m = inner(f.weights.row(0), ga.data(), n);
    for (int j = 0; j < n; j++) gs[j] = f.weights(0, j) * (ga[j] - m);

    Row gq(D_K, 0.0f);
    for (int j = 0; j < n; j++)
        for (int c = 0; c < D_K; c++) gq[c] += gs[j] * f.K(j, c) * k;

    // (q k) W_K^T and gz W_V^T do not depend on the position
    float kb[D], vb[D], sx[D] = {}, ax[D] = {};
    for (int r = 0; r < D; r++) {
        kb[r] = 0.0f;
        vb[r] = 0.0f;
        for (int c = 0; c < D_K; c++) kb[r] += f.q(0, c) * k * p.W_K(r, c);
        for (int c = 0; c < D_V; c++) vb[r] += gz[c] * p.W_V(r, c);
    }
    for (int j = 0; j < n; j++) {
        float* e = grad.embeddings.row(tokens[j]);
        for (int r = 0; r < D; r++) {
            e[r] += gs[j] * kb[r] + f.weights(0, j) * vb[r];
            sx[r] += gs[j] * f.X(j, r);
            ax[r] += f.weights(0, j) * f.X(j, r);
        }
    }
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += ax[r] * gz[c];
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += sx[r] * (f.q(0, c) * k);
    }
    through_query(p, f, tokens[n - 1], gq, grad);
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
