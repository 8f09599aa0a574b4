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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    int len = tokens.size(), V = p.bias.cols, a, b, k, m;
    float gz[D_V], gq[D_K], gk[D_K], gv[D_V], total;
    float sc = 1.0f / std::sqrt(float(D_K));
    std::vector<float> gl(V), gw(len), gs(len);

    // softmax and cross entropy
    for (a = 0; a < V; a++)
    {
        gl[a] = f.probs(0, a);
        if (a == target)
            gl[a] -= 1.0f;
        gl[a] *= loss_weight;
        grad.bias(0, a) += gl[a];
    }
    for (m = 0; m < D_V; m++)
    {
        gz[m] = 0;
        for (a = 0; a < V; a++)
        {
            grad.W_out(m, a) += f.z(0, m) * gl[a];
            gz[m] += gl[a] * p.W_out(m, a);
        }
    }

    // attention weights then the scores
    total = 0;
    for (b = 0; b < len; b++)
    {
        gw[b] = 0;
        for (k = 0; k < D_V; k++)
            gw[b] += gz[k] * f.V(b, k);
        total += gw[b] * f.weights(0, b);
    }
    for (b = 0; b < len; b++)
        gs[b] = f.weights(0, b) * (gw[b] - total);
    for (k = 0; k < D_K; k++)
        gq[k] = 0;

    // each position's key and value
    for (b = 0; b < len; b++)
    {
        for (k = 0; k < D_K; k++)
        {
            gq[k] += gs[b] * sc * f.K(b, k);
            gk[k] = gs[b] * sc * f.q(0, k);
        }
        for (k = 0; k < D_V; k++)
            gv[k] = f.weights(0, b) * gz[k];
        for (m = 0; m < D; m++)
        {
            float acc = 0;
            for (k = 0; k < D_K; k++)
            {
                grad.W_K(m, k) += f.X(b, m) * gk[k];
                acc += gk[k] * p.W_K(m, k);
            }
            for (k = 0; k < D_V; k++)
            {
                grad.W_V(m, k) += f.X(b, m) * gv[k];
                acc += gv[k] * p.W_V(m, k);
            }
            grad.embeddings(tokens[b], m) += acc;
        }
    }

    // query
    for (m = 0; m < D; m++)
    {
        float acc = 0;
        for (k = 0; k < D_K; k++)
        {
            grad.W_Q(m, k) += f.X(len - 1, m) * gq[k];
            acc += gq[k] * p.W_Q(m, k);
        }
        grad.embeddings(tokens[len - 1], m) += acc;
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
