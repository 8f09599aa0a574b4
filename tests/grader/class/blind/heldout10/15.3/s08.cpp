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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad)
{
    const int n = int(tokens.size()), nv = p.bias.cols;
    const float s = 1.0f / std::sqrt(float(D_K));

    // gradient at the logits: probs minus one-hot
    Matrix gl(1, nv);
    for (int i = 0; i < nv; i++) gl(0, i) = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    for (int i = 0; i < nv; i++) grad.bias(0, i) += gl(0, i);
    for (int r = 0; r < D_V; r++)
        for (int i = 0; i < nv; i++) grad.W_out(r, i) += f.z(0, r) * gl(0, i);

    Matrix gz(1, D_V);
    for (int r = 0; r < D_V; r++) gz(0, r) = dot(gl.row(0), p.W_out.row(r), nv);

    Matrix gw(1, n);
    for (int j = 0; j < n; j++) gw(0, j) = dot(gz.row(0), f.V.row(j), D_V);

    float avg = dot(f.weights.row(0), gw.row(0), n);
    Matrix gs(1, n);
    for (int j = 0; j < n; j++) gs(0, j) = f.weights(0, j) * (gw(0, j) - avg);

    Matrix gq(1, D_K);
    for (int j = 0; j < n; j++)
        for (int c = 0; c < D_K; c++) gq(0, c) += gs(0, j) * f.K(j, c) * s;

    float kb[D], vb[D];
    for (int r = 0; r < D; r++)
    {
        kb[r] = 0.0f, vb[r] = 0.0f;
        for (int c = 0; c < D_K; c++) kb[r] += f.q(0, c) * s * p.W_K(r, c);
        for (int c = 0; c < D_V; c++) vb[r] += gz(0, c) * p.W_V(r, c);
    }
    float sx[D] = {}, ax[D] = {};
    for (int j = 0; j < n; j++)
    {
        const float d = gs(0, j), a = f.weights(0, j);
        for (int r = 0; r < D; r++)
        {
            grad.embeddings(tokens[j], r) += d * kb[r] + a * vb[r];
            sx[r] += d * f.X(j, r);
            ax[r] += a * f.X(j, r);
        }
    }
    for (int r = 0; r < D; r++)
    {
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += sx[r] * (f.q(0, c) * s);
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += ax[r] * gz(0, c);
    }
    for (int r = 0; r < D; r++)
    {
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += f.X(n - 1, r) * gq(0, c);
        grad.embeddings(tokens[n - 1], r) += dot(gq.row(0), p.W_Q.row(r), D_K);
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
