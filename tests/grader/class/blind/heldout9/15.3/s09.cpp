#include <cmath>
#include <cstdio>
#include <vector>

#include "colour_recall.hpp"

using Grad = std::vector<double>;

// one vocabulary column of the output layer: its bias, its W_out column, and its share of d z
static void output_column(const Params& p, const Forward& f, size_t k, double gk, Grad& dctx, Params& grad) {
    grad.bias(0, int(k)) += (float)gk;
    size_t m = 0;
    while (m < size_t(D_V)) {
        grad.W_out(int(m), int(k)) += (float)(f.z(0, int(m)) * gk);
        dctx[m] += p.W_out(int(m), int(k)) * gk;
        ++m;
    }
}

// d(attention weight) of one position: d z . v_s
static double weight_grad_of_row(const Forward& f, const Grad& dctx, size_t s) {
    double acc = 0.0;
    size_t m = 0;
    while (m < size_t(D_V)) {
        acc += dctx[m] * f.V(int(s), int(m));
        ++m;
    }
    return acc;
}

// one embedding component e of one position s: W_K, W_V (and W_Q at the last position)
static double embedding_component(const Params& p, const Forward& f, size_t s, size_t e, double ds,
                                  const Grad& dctx, const Grad& dq, bool last, Params& grad) {
    const int r = int(e), row = int(s);
    double back = 0.0;
    size_t m = 0;
    while (m < size_t(D_K)) {
        const double gk = ds * f.q(0, int(m));
        grad.W_K(r, int(m)) += (float)(f.X(row, r) * gk);
        back += gk * p.W_K(r, int(m));
        ++m;
    }
    for (m = 0; m < size_t(D_V); ++m) {
        const double gv = f.weights(0, row) * dctx[m];
        grad.W_V(r, int(m)) += (float)(f.X(row, r) * gv);
        back += gv * p.W_V(r, int(m));
    }
    if (last) {
        m = 0;
        while (m < size_t(D_K)) {
            grad.W_Q(r, int(m)) += (float)(f.X(row, r) * dq[m]);
            back += dq[m] * p.W_Q(r, int(m));
            ++m;
        }
    }
    return back;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const size_t len = tokens.size();
    const size_t vocab = size_t(f.probs.cols);

    Grad dctx(D_V, 0.0);
    size_t k = 0;
    while (k < vocab) {
        const double gk = loss_weight * (f.probs(0, int(k)) - (int(k) == target));
        output_column(p, f, k, gk, dctx, grad);
        ++k;
    }

    Grad dw(len), ds(len);
    double mean = 0.0;
    size_t s = 0;
    while (s < len) {
        dw[s] = weight_grad_of_row(f, dctx, s);
        mean += f.weights(0, int(s)) * dw[s];
        ++s;
    }
    const double root = std::sqrt((double)D_K);
    for (s = 0; s < len; ++s) ds[s] = f.weights(0, int(s)) * (dw[s] - mean) / root;

    Grad dq(D_K, 0.0);
    for (s = 0; s < len; ++s) {
        size_t m = 0;
        while (m < size_t(D_K)) {
            dq[m] += ds[s] * f.K(int(s), int(m));
            ++m;
        }
    }

    for (s = 0; s < len; ++s) {
        size_t e = 0;
        while (e < size_t(D)) {
            const double back = embedding_component(p, f, s, e, ds[s], dctx, dq, s + 1 == len, grad);
            grad.embeddings(tokens[s], int(e)) += (float)back;
            ++e;
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
