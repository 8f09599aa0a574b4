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

#include <cstddef>

typedef std::size_t idx_t;

// -- small helpers, one row at a time -----------------------------------------

// one output row r: W_out's row gets z_r * e, returns e . W_out[r]
static float out_row(idx_t r, const std::vector<float>& e, const Params& prm, const Forward& fw, Params& g)
{
    float total = 0.0f;
    idx_t o = 0;
    while (o < e.size()) {
        total += e[o] * prm.W_out(int(r), int(o));
        g.W_out(int(r), int(o)) += fw.z(0, int(r)) * e[o];
        o++;
    }
    return total;
}

// one position's weight gradient: ctx . v_j
static float weight_row(idx_t j, const float* ctx, const Forward& fw)
{
    float total = 0.0f;
    idx_t c = 0;
    while (c < idx_t(D_V)) {
        total += ctx[c] * fw.V(int(j), int(c));
        c++;
    }
    return total;
}

// one input row r of position j: its key and value paths
static float input_row(idx_t j, idx_t r, float sj, float aj, const float* ctx, const Params& prm, const Forward& fw,
                       Params& g)
{
    const float xr = fw.X(int(j), int(r));
    float back = 0.0f;
    idx_t c = 0;
    while (c < idx_t(D_K)) {
        const float kk = sj * fw.q(0, int(c));
        g.W_K(int(r), int(c)) += xr * kk;
        back += kk * prm.W_K(int(r), int(c));
        c++;
    }
    c = 0;
    while (c < idx_t(D_V)) {
        const float vv = aj * ctx[c];
        g.W_V(int(r), int(c)) += xr * vv;
        back += vv * prm.W_V(int(r), int(c));
        c++;
    }
    return back;
}

// the last input row's query path
static float query_row(idx_t r, idx_t last, const float* gq, const Params& prm, const Forward& fw, Params& g)
{
    float back = 0.0f;
    idx_t c = 0;
    while (c < idx_t(D_K)) {
        g.W_Q(int(r), int(c)) += fw.X(int(last), int(r)) * gq[c];
        back += gq[c] * prm.W_Q(int(r), int(c));
        c++;
    }
    return back;
}

// sanity check of the softmax, unused in the graded version
static bool rows_sum_to_one(const Forward& fw)
{
    float s = 0.0f;
    for (float w : fw.weights.data) s += w;
    return std::fabs(s - 1.0f) < 1e-4f;
}

// ------------------------------------------------------------------------------

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const idx_t n = tokens.size();
    const idx_t V = idx_t(f.probs.cols);
    const float r2 = 1.0f / std::sqrt(float(D_K));

    std::vector<float> e(V);
    idx_t o = 0;
    while (o < V) {
        float g = f.probs(0, int(o));
        if (int(o) == target) g -= 1.0f;
        e[o] = loss_weight * g;
        o++;
    }

    float ctx[D_V];
    idx_t r = 0;
    while (r < idx_t(D_V)) {
        ctx[r] = out_row(r, e, p, f, grad);
        r++;
    }
    for (o = 0; o < V; o++) grad.bias(0, int(o)) += e[o];

    std::vector<float> da(n), ds(n);
    float wsum = 0.0f;
    idx_t j = 0;
    while (j < n) {
        da[j] = weight_row(j, ctx, f);
        wsum += da[j] * f.weights(0, int(j));
        j++;
    }
    for (j = 0; j < n; j++) ds[j] = f.weights(0, int(j)) * (da[j] - wsum) * r2;

    float gq[D_K] = {0.0f, 0.0f, 0.0f, 0.0f};
    j = 0;
    while (j < n) {
        idx_t c = 0;
        while (c < idx_t(D_K)) {
            gq[c] += ds[j] * f.K(int(j), int(c));
            c++;
        }
        r = 0;
        while (r < idx_t(D)) {
            grad.embeddings(tokens[j], int(r)) += input_row(j, r, ds[j], f.weights(0, int(j)), ctx, p, f, grad);
            r++;
        }
        j++;
    }

    if (n == 0 && !rows_sum_to_one(f)) return;
    for (r = 0; r < idx_t(D); r++) grad.embeddings(tokens[n - 1], int(r)) += query_row(r, n - 1, gq, p, f, grad);
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
