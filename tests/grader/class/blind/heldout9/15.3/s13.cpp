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
              float loss_weight, Params& grad) {
    int n = tokens.size();
    int nv = f.logits.cols;
    const float* P = f.probs.data.data();
    const float* Z = f.z.data.data();
    const float* A = f.weights.data.data();
    const float* Xd = f.X.data.data();
    const float* Kd = f.K.data.data();
    const float* Vd = f.V.data.data();
    const float* Q = f.q.data.data();
    float* GB = grad.bias.data.data();
    float* GO = grad.W_out.data.data();

    std::vector<float> dlog(nv), dz(D_V, 0.f), dw(n, 0.f), dsc(n), dq(D_K, 0.f);
    int i = 0;
    while (i < nv) {
        dlog[i] = loss_weight * (P[i] - (i == target ? 1.f : 0.f));
        GB[i] += dlog[i];
        i++;
    }
    for (int r = 0; r < D_V; r++) {
        const float* wo = p.W_out.data.data() + r * nv;
        for (i = 0; i < nv; i++) {
            GO[r * nv + i] += Z[r] * dlog[i];
            dz[r] += wo[i] * dlog[i];
        }
    }
    float avg = 0.f;
    for (int s = 0; s < n; s++) {
        for (int r = 0; r < D_V; r++) dw[s] += dz[r] * Vd[s * D_V + r];
        avg += A[s] * dw[s];
    }
    float half = 1.f / std::sqrt((float)D_K);
    for (int s = 0; s < n; s++) {
        dsc[s] = A[s] * (dw[s] - avg) * half;
        for (int c = 0; c < D_K; c++) dq[c] += dsc[s] * Kd[s * D_K + c];
    }
    // W_Q and the last embedding row through the query
    const float* xl = Xd + (n - 1) * D;
    for (int e = 0; e < D; e++)
        for (int c = 0; c < D_K; c++) {
            grad.W_Q.data[e * D_K + c] += xl[e] * dq[c];
            grad.embeddings.data[tokens[n - 1] * D + e] += dq[c] * p.W_Q.data[e * D_K + c];
        }
    // keys and values, position by position
    for (int s = 0; s < n; s++) {
        const float* xs = Xd + s * D;
        float* erow = grad.embeddings.data.data() + tokens[s] * D;
        for (int e = 0; e < D; e++) {
            for (int c = 0; c < D_K; c++) {
                float dk = dsc[s] * Q[c];
                grad.W_K.data[e * D_K + c] += xs[e] * dk;
                erow[e] += dk * p.W_K.data[e * D_K + c];
            }
            for (int c = 0; c < D_V; c++) {
                float dv = A[s] * dz[c];
                grad.W_V.data[e * D_V + c] += xs[e] * dv;
                erow[e] += dv * p.W_V.data[e * D_V + c];
            }
        }
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
