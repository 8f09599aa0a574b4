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

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad)
{
    const int n = int(tokens.size()), nv = p.bias.cols;
    const float k = 1.0f / std::sqrt(float(D_K));

    // output layer
    Matrix gl(1, nv);
    for (int o = 0; o < nv; o++)
        gl(0, o) = (f.probs(0, o) - (o == target ? 1.0f : 0.0f)) * loss_weight;
    for (int o = 0; o < nv; o++)
        grad.bias(0, o) += gl(0, o);
    for (int m = 0; m < D_V; m++)
        for (int o = 0; o < nv; o++)
            grad.W_out(m, o) += f.z(0, m) * gl(0, o);
    Matrix gz(1, D_V);
    for (int m = 0; m < D_V; m++)
        gz(0, m) = dot(gl.row(0), p.W_out.row(m), nv);

    // mixing
    Matrix ga(1, n);
    for (int s = 0; s < n; s++)
        ga(0, s) = dot(gz.row(0), f.V.row(s), D_V);

    // softmax
    float avg = dot(f.weights.row(0), ga.row(0), n);
    Matrix gs(1, n);
    for (int s = 0; s < n; s++)
        gs(0, s) = f.weights(0, s) * (ga(0, s) - avg);

    // scores
    Matrix gq(1, D_K);
    for (int s = 0; s < n; s++)
        for (int m = 0; m < D_K; m++)
            gq(0, m) += gs(0, s) * f.K(s, m) * k;

    // keys and values
    float kb[D], vb[D];
    for (int i = 0; i < D; i++)
    {
        kb[i] = 0.0f, vb[i] = 0.0f;
        for (int m = 0; m < D_K; m++)
            kb[i] += f.q(0, m) * k * p.W_K(i, m);
        for (int m = 0; m < D_V; m++)
            vb[i] += gz(0, m) * p.W_V(i, m);
    }
    float sx[D] = {}, ax[D] = {};
    for (int s = 0; s < n; s++)
    {
        const float g = gs(0, s), w = f.weights(0, s);
        for (int i = 0; i < D; i++)
        {
            grad.embeddings(tokens[s], i) += g * kb[i] + w * vb[i];
            sx[i] += g * f.X(s, i);
            ax[i] += w * f.X(s, i);
        }
    }
    for (int i = 0; i < D; i++)
    {
        for (int m = 0; m < D_K; m++)
            grad.W_K(i, m) += sx[i] * (f.q(0, m) * k);
        for (int m = 0; m < D_V; m++)
            grad.W_V(i, m) += ax[i] * gz(0, m);
    }

    // query
    for (int i = 0; i < D; i++)
    {
        for (int m = 0; m < D_K; m++)
            grad.W_Q(i, m) += f.X(n - 1, i) * gq(0, m);
        grad.embeddings(tokens[n - 1], i) += dot(gq.row(0), p.W_Q.row(i), D_K);
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
