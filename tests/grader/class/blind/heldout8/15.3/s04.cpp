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
// TODO: write backward (the statement above says what it adds into grad)
#include <valarray>

using Vec = std::valarray<float>;

static Vec rowOf(const Matrix& m, int r)
{
    return Vec(m.row(r), m.cols);
}

// y = x W, so dx = dy W^T and dW gets x^T dy
static Vec backThroughLinear(const Matrix& W, const Vec& x, const Vec& dy, Matrix& dW)
{
    Vec dx(0.0f, W.rows);
    for (int a = 0; a < W.rows; ++a)
        for (int b = 0; b < W.cols; ++b)
        {
            dW(a, b) += x[a] * dy[b];
            dx[a] += W(a, b) * dy[b];
        }
    return dx;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int n = (int)tokens.size();
    const float invRoot = 1.0f / std::sqrt((float)D_K);

    // cross entropy after softmax: probs - onehot
    Vec dLogit = rowOf(f.probs, 0);
    dLogit[target] -= 1.0f;
    dLogit *= loss_weight;
    for (int v = 0; v < (int)dLogit.size(); ++v)
        grad.bias(0, v) += dLogit[v];

    Vec dZ = backThroughLinear(p.W_out, rowOf(f.z, 0), dLogit, grad.W_out);

    // attention weights and the softmax
    Vec a = rowOf(f.weights, 0);
    Vec dA(0.0f, n);
    for (int j = 0; j < n; ++j)
        dA[j] = (rowOf(f.V, j) * dZ).sum();
    const float avg = (a * dA).sum();
    Vec dS = a * (dA - avg);

    Vec q = rowOf(f.q, 0);
    Vec dQ(0.0f, D_K);
    for (int j = 0; j < n; ++j)
    {
        Vec dK = q * (dS[j] * invRoot);
        dQ += rowOf(f.K, j) * (dS[j] * invRoot);
        Vec dV = dZ * a[j];
        Vec x = rowOf(f.X, j);
        Vec dx = backThroughLinear(p.W_K, x, dK, grad.W_K) + backThroughLinear(p.W_V, x, dV, grad.W_V);
        for (int c = 0; c < D; ++c)
            grad.embeddings(tokens[j], c) += dx[c];
    }

    Vec dxQuery = backThroughLinear(p.W_Q, rowOf(f.X, n - 1), dQ, grad.W_Q);
    for (int c = 0; c < D; ++c)
        grad.embeddings(tokens[n - 1], c) += dxQuery[c];
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
