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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad)
{
    const int n = int(tokens.size()), nv = p.bias.cols;
    const float inv2 = 1.0f / std::sqrt(float(D_K));

    // output layer: dL/dlogits = probs - onehot
    Matrix gLogits(1, nv);
    for (int v = 0; v < nv; v++)
        gLogits(0, v) = (f.probs(0, v) - (v == target ? 1.0f : 0.0f)) * loss_weight;
    for (int v = 0; v < nv; v++)
        grad.bias(0, v) += gLogits(0, v);
    for (int row = 0; row < D_V; row++)
        for (int v = 0; v < nv; v++)
            grad.W_out(row, v) += f.z(0, row) * gLogits(0, v);
    Matrix gZ(1, D_V);
    for (int row = 0; row < D_V; row++)
        gZ(0, row) = dot(gLogits.row(0), p.W_out.row(row), nv);

    // blend of the values
    Matrix gA(1, n);
    for (int pos = 0; pos < n; pos++)
        gA(0, pos) = dot(gZ.row(0), f.V.row(pos), D_V);

    // softmax
    float avg = dot(f.weights.row(0), gA.row(0), n);
    Matrix gS(1, n);
    for (int pos = 0; pos < n; pos++)
        gS(0, pos) = f.weights(0, pos) * (gA(0, pos) - avg);

    // scores
    Matrix gQ(1, D_K);
    for (int pos = 0; pos < n; pos++)
        for (int c = 0; c < D_K; c++)
            gQ(0, c) += gS(0, pos) * f.K(pos, c) * inv2;

    // keys and values at every position, then their embedding rows
    float kb[D], vb[D];
    for (int row = 0; row < D; row++)
    {
        kb[row] = 0.0f, vb[row] = 0.0f;
        for (int c = 0; c < D_K; c++)
            kb[row] += f.q(0, c) * inv2 * p.W_K(row, c);
        for (int c = 0; c < D_V; c++)
            vb[row] += gZ(0, c) * p.W_V(row, c);
    }
    float sx_s[D] = {}, sx_a[D] = {};
    for (int pos = 0; pos < n; pos++)
    {
        const float gs = gS(0, pos), w = f.weights(0, pos);
        for (int row = 0; row < D; row++)
        {
            grad.embeddings(tokens[pos], row) += gs * kb[row] + w * vb[row];
            sx_s[row] += gs * f.X(pos, row);
            sx_a[row] += w * f.X(pos, row);
        }
    }
    for (int row = 0; row < D; row++)
    {
        for (int c = 0; c < D_K; c++)
            grad.W_K(row, c) += sx_s[row] * (f.q(0, c) * inv2);
        for (int c = 0; c < D_V; c++)
            grad.W_V(row, c) += sx_a[row] * gZ(0, c);
    }

    // query from the last position
    for (int row = 0; row < D; row++)
    {
        for (int c = 0; c < D_K; c++)
            grad.W_Q(row, c) += f.X(n - 1, row) * gQ(0, c);
        grad.embeddings(tokens[n - 1], row) += dot(gQ.row(0), p.W_Q.row(row), D_K);
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
