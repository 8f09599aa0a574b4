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

#define EMB(j, r) grad.embeddings(tokens[j], r)

#if 0
static void dump(const char* name, const float* v, int n) {
    std::fprintf(stderr, "%s:", name);
    for (int i = 0; i < n; i++) std::fprintf(stderr, " %g", v[i]);
    std::fprintf(stderr, "\n");
}
#endif

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int N = int(tokens.size());
    const int outs = f.probs.cols;
    const float r2 = 1.0f / std::sqrt(float(D_K));

    std::vector<float> dy(outs);
    for (int k = 0; k < outs; k++)
        dy[k] = loss_weight * (f.probs(0, k) - (k == target ? 1.0f : 0.0f));
    for (int k = 0; k < outs; k++)
        grad.bias(0, k) += dy[k];
    for (int r = 0; r < grad.W_out.rows; r++)
        for (int c = 0; c < grad.W_out.cols; c++)
            grad.W_out(r, c) += f.z(0, r) * dy[c];

    std::array<float, D_V> dctx{};
    for (int r = 0; r < p.W_out.rows; r++)
        for (int c = 0; c < p.W_out.cols; c++)
            dctx[r] += p.W_out(r, c) * dy[c];

    std::vector<float> dw(N), dsc(N);
    float tot = 0.0f;
    int j = 0;
    while (j < N)
    {
        float acc = 0.0f;
        for (int c = 0; c < D_V; c++)
            acc += dctx[c] * f.V(j, c);
        dw[j] = acc;
        tot += f.weights(0, j) * acc;
        j++;
    }
    for (j = 0; j < N; j++)
        dsc[j] = f.weights(0, j) * (dw[j] - tot);

    std::array<float, D_K> dqry{};
    for (j = 0; j < N; j++)
        for (int c = 0; c < D_K; c++)
            dqry[c] += dsc[j] * r2 * f.K(j, c);

    // the query part first this time
    const float* xlast = f.X.row(N - 1);
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++)
            grad.W_Q(r, c) += xlast[r] * dqry[c];

    j = 0;
    while (j < N)
    {
        std::array<float, D_K> dkey;
        std::array<float, D_V> dval;
        for (int c = 0; c < D_K; c++)
            dkey[c] = dsc[j] * r2 * f.q(0, c);
        for (int c = 0; c < D_V; c++)
            dval[c] = f.weights(0, j) * dctx[c];
        const float* xj = f.X.row(j);
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D_K; c++)
                grad.W_K(r, c) += xj[r] * dkey[c];
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D_V; c++)
                grad.W_V(r, c) += xj[r] * dval[c];
        std::array<float, D> fromk{}, fromv{};
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D_K; c++)
                fromk[r] += p.W_K(r, c) * dkey[c];
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D_V; c++)
                fromv[r] += p.W_V(r, c) * dval[c];
        for (int r = 0; r < D; r++)
            EMB(j, r) += fromk[r] + fromv[r];
        ++j;
    }

    std::array<float, D> fromq{};
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++)
            fromq[r] += p.W_Q(r, c) * dqry[c];
    for (int r = 0; r < D; r++)
        EMB(N - 1, r) += fromq[r];
}

#undef EMB

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
