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
// My own small matrix helpers, so that the shapes are easy to follow.
static Matrix mul(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    for (int i = 0; i < a.rows; i++)
        for (int j = 0; j < b.cols; j++) {
            float s = 0.0f;
            for (int k = 0; k < a.cols; k++) s += a(i, k) * b(k, j);
            out(i, j) = s;
        }
    return out;
}

static Matrix tr(const Matrix& a) {
    Matrix out(a.cols, a.rows);
    for (int i = 0; i < a.rows; i++)
        for (int j = 0; j < a.cols; j++) out(j, i) = a(i, j);
    return out;
}

static void plus_equals(Matrix& acc, const Matrix& m, float k = 1.0f) {
    for (size_t i = 0; i < acc.data.size(); i++) acc.data[i] += m.data[i] * k;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int n = (int)tokens.size();
    const float r = 1.0f / std::sqrt((float)D_K);

    Matrix g = f.probs;
    g(0, target) -= 1.0f;
    for (float& v : g.data) v *= loss_weight;

    Matrix gz = mul(g, tr(p.W_out));
    plus_equals(grad.W_out, mul(tr(f.z), g));
    plus_equals(grad.bias, g);

    Matrix ga = mul(gz, tr(f.V));
    float avg = 0.0f;
    for (int j = 0; j < n; j++) avg += f.weights(0, j) * ga(0, j);
    Matrix gs(1, n);
    for (int j = 0; j < n; j++) gs(0, j) = f.weights(0, j) * (ga(0, j) - avg);

    Matrix gv = mul(tr(f.weights), gz);
    Matrix gk = mul(tr(gs), f.q);
    for (float& v : gk.data) v *= r;
    Matrix gq = mul(gs, f.K);
    for (float& v : gq.data) v *= r;

    plus_equals(grad.W_V, mul(tr(f.X), gv));
    plus_equals(grad.W_K, mul(tr(f.X), gk));
    Matrix last(1, D);
    for (int c = 0; c < D; c++) last(0, c) = f.X(n - 1, c);
    plus_equals(grad.W_Q, mul(tr(last), gq));

    Matrix gx = mul(gk, tr(p.W_K));
    plus_equals(gx, mul(gv, tr(p.W_V)));
    Matrix gxq = mul(gq, tr(p.W_Q));
    for (int c = 0; c < D; c++) gx(n - 1, c) += gxq(0, c);
    for (int t = 0; t < n; t++)
        for (int c = 0; c < D; c++) grad.embeddings(tokens[t], c) += gx(t, c);
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
