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
#define EMB(tok, c) grad.embeddings((tok), (c))

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int n = (int)tokens.size();
    const float s = 1.0f / std::sqrt((float)D_K);

    // output bias and logits
    std::vector<float> gLog;
    int v = 0;
    while (v < f.probs.cols)
    {
        float hot = (v == target) ? 1.0f : 0.0f;
        gLog.push_back(loss_weight * (f.probs(0, v) - hot));
        v++;
    }
    for (v = 0; v < grad.bias.cols; v++)
        grad.bias(0, v) += gLog[v];

    std::vector<float> gZ(p.W_out.rows, 0.0f);
    int r = 0;
    while (r < p.W_out.rows)
    {
        int c = 0;
        while (c < p.W_out.cols)
        {
            grad.W_out(r, c) += f.z(0, r) * gLog[c];
            gZ[r] += gLog[c] * p.W_out(r, c);
            c++;
        }
        r++;
    }

    // softmax of the scores
    std::vector<float> gA(n), gS(n);
    float wsum = 0.0f;
    for (int i = 0; i < n; i++)
        gA[i] = dot(gZ.data(), f.V.row(i), D_V);
    for (int i = 0; i < n; i++)
        wsum += f.weights(0, i) * gA[i];
    for (int i = 0; i < n; i++)
        gS[i] = f.weights(0, i) * (gA[i] - wsum);

    std::vector<float> gQ(D_K, 0.0f);
    for (int i = 0; i < n; i++)
    {
        std::vector<float> gK(D_K), gV(D_V), back(D, 0.0f);
        for (int c = 0; c < D_V; c++)
            gV[c] = f.weights(0, i) * gZ[c];
        for (int c = 0; c < D_K; c++)
        {
            gK[c] = gS[i] * s * f.q(0, c);
            gQ[c] += gS[i] * s * f.K(i, c);
        }
        const float* xi = f.X.row(i);
        for (int e = 0; e < p.W_V.rows; e++)
            for (int c = 0; c < p.W_V.cols; c++)
            {
                grad.W_V(e, c) += xi[e] * gV[c];
                back[e] += gV[c] * p.W_V(e, c);
            }
        for (int e = 0; e < p.W_K.rows; e++)
            for (int c = 0; c < p.W_K.cols; c++)
            {
                grad.W_K(e, c) += xi[e] * gK[c];
                back[e] += gK[c] * p.W_K(e, c);
            }
        for (int e = 0; e < D; e++)
            EMB(tokens[i], e) += back[e];
    }

    // the query
    const float* xq = f.X.row(n - 1);
    std::vector<float> back(D, 0.0f);
    for (int e = 0; e < p.W_Q.rows; e++)
        for (int c = 0; c < p.W_Q.cols; c++)
        {
            grad.W_Q(e, c) += xq[e] * gQ[c];
            back[e] += gQ[c] * p.W_Q(e, c);
        }
    for (int e = 0; e < D; e++)
        EMB(tokens[0], e) += back[e];
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
