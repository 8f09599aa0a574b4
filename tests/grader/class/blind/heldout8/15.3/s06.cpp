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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    int n, V, a, b, c;
    double avg;
    float gq[D_K];

    n = (int)tokens.size();
    V = p.W_out.cols;
    std::vector<float> gl(V), gz(D_V, 0.0f), gx(n * D, 0.0f);
    std::vector<double> gw(n), gs(n);

    // output layer
    for (c = 0; c < V; c++)
    {
        gl[c] = f.probs(0, c);
        if (c == target)
            gl[c] = gl[c] - 1.0f;
        gl[c] = gl[c] * loss_weight;
        grad.bias(0, c) = grad.bias(0, c) + gl[c];
    }
    for (c = 0; c < V; c++)
    {
        for (a = 0; a < D_V; a++)
        {
            grad.W_out(a, c) = grad.W_out(a, c) + f.z(0, a) * gl[c];
            gz[a] = gz[a] + p.W_out(a, c) * gl[c];
        }
    }

    // attention weights then softmax (scaled by 1/sqrt(D_K) here)
    avg = 0.0;
    for (b = 0; b < n; b++)
    {
        gw[b] = 0.0;
        for (a = 0; a < D_V; a++)
            gw[b] = gw[b] + (double)gz[a] * f.V(b, a);
        avg = avg + f.weights(0, b) * gw[b];
    }
    for (b = 0; b < n; b++)
        gs[b] = f.weights(0, b) * (gw[b] - avg) / std::sqrt((double)D_K);

    for (c = 0; c < D_K; c++)
    {
        gq[c] = 0.0f;
        for (b = 0; b < n; b++)
            gq[c] = gq[c] + (float)gs[b] * f.K(b, c);
    }

    // keys and values
    for (b = 0; b < n; b++)
    {
        for (a = 0; a < D; a++)
        {
            float sum = 0.0f;
            for (c = 0; c < D_K; c++)
            {
                float gk = (float)gs[b] * f.q(0, c);
                grad.W_K(a, c) = grad.W_K(a, c) + f.X(b, a) * gk;
                sum = sum + gk * p.W_K(a, c);
            }
            for (c = 0; c < D_V; c++)
            {
                float gv = f.weights(0, b) * gz[c];
                grad.W_V(a, c) = grad.W_V(a, c) + f.X(b, a) * gv;
                sum = sum + gv * p.W_V(a, c);
            }
            gx[b * D + a] = gx[b * D + a] + sum;
        }
    }

    // query (last token)
    for (a = 0; a < D; a++)
    {
        for (c = 0; c < D_K; c++)
        {
            grad.W_Q(a, c) = grad.W_Q(a, c) + f.X(n - 1, a) * gq[c];
            gx[(n - 1) * D + a] = gx[(n - 1) * D + a] + gq[c] * p.W_Q(a, c);
        }
    }

    for (b = 0; b < n; b++)
    {
        for (a = 0; a < D; a++)
            grad.embeddings(tokens[b], a) = grad.embeddings(tokens[b], a) + gx[b * D + a];
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
