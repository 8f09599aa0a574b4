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
              float loss_weight, Params& grad) {
    int T, nv, i, j, k;
    double wmean;
    float dq[D_K];
    T = (int)tokens.size();
    nv = p.W_out.cols;
    std::vector<float> g(nv), dz(D_V, 0.0f), dX(T * D, 0.0f);
    std::vector<double> da(T), ds(T);

    /* output layer */
    for (k = 0; k < nv; k++) {
        g[k] = f.probs(0, k);
        if (k == target) g[k] = g[k] - 1.0f;
        g[k] = g[k] * loss_weight;
        grad.bias(0, k) = grad.bias(0, k) + g[k];
    }
    for (k = 0; k < nv; k++)
        for (i = 0; i < D_V; i++) {
            grad.W_out(i, k) = grad.W_out(i, k) + f.z(0, i) * g[k];
            dz[i] = dz[i] + p.W_out(i, k) * g[k];
        }

    /* weights, then the softmax; the 1/sqrt(D_K) of the scores goes in here too */
    wmean = 0.0;
    for (j = 0; j < T; j++) {
        da[j] = 0.0;
        for (i = 0; i < D_V; i++) da[j] = da[j] + (double)dz[i] * f.V(j, i);
        wmean = wmean + f.weights(0, j) * da[j];
    }
    for (j = 0; j < T; j++) ds[j] = f.weights(0, j) * (da[j] - wmean) / std::sqrt((double)D_K);

    for (k = 0; k < D_K; k++) {
        dq[k] = 0.0f;
        for (j = 0; j < T; j++) dq[k] = dq[k] + (float)ds[j] * f.K(j, k);
    }

    /* keys and values of every position: dk = ds q, dv = a dz */
    for (j = 0; j < T; j++) {
        for (i = 0; i < D; i++) {
            float acc = 0.0f;
            for (k = 0; k < D_K; k++) {
                float dk = (float)ds[j] * f.q(0, k);
                grad.W_K(i, k) = grad.W_K(i, k) + f.X(j, i) * dk;
                acc = acc + dk * p.W_K(i, k);
            }
            for (k = 0; k < D_V; k++) {
                float dv = f.weights(0, j) * dz[k];
                grad.W_V(i, k) = grad.W_V(i, k) + f.X(j, i) * dv;
                acc = acc + dv * p.W_V(i, k);
            }
            dX[j * D + i] = dX[j * D + i] + acc;
        }
    }

    /* the query came from the last position only */
    for (i = 0; i < D; i++)
        for (k = 0; k < D_K; k++) {
            grad.W_Q(i, k) = grad.W_Q(i, k) + f.X(T - 1, i) * dq[k];
            dX[(T - 1) * D + i] = dX[(T - 1) * D + i] + dq[k] * p.W_Q(i, k);
        }

    for (j = 0; j < T; j++)
        for (i = 0; i < D; i++) grad.embeddings(tokens[j], i) = grad.embeddings(tokens[j], i) + dX[j * D + i];
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
