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

// row r of M into out (n numbers)
static void fetch(float* out, const Matrix& M, int r, int n) {
    int k = 0;
    while (k < n) { out[k] = M(r, k); k++; }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const float k2 = 1.0f / std::sqrt(static_cast<float>(D_K));
    const int len = static_cast<int>(tokens.size());

    std::vector<float> gradLogit = f.probs.data;
    gradLogit[target] = gradLogit[target] - 1.0f;
    for (size_t v = 0; v < gradLogit.size(); v++) gradLogit[v] = gradLogit[v] * loss_weight;
    for (size_t v = 0; v < gradLogit.size(); v++) grad.bias.data[v] = grad.bias.data[v] + gradLogit[v];

    float gradZ[D_V];
    int r = 0;
    while (r < D_V) {
        float s = 0.0f;
        for (int v = 0; v < p.W_out.cols; v++) {
            grad.W_out(r, v) += f.z(0, r) * gradLogit[v];
            s += gradLogit[v] * p.W_out(r, v);
        }
        gradZ[r] = s;
        r++;
    }

    std::vector<float> gradW(len, 0.0f);
    float centre = 0.0f;
    for (int j = 0; j < len; j++) {
        for (int c = 0; c < D_V; c++) gradW[j] += gradZ[c] * f.V(j, c);
    }
    for (int j = 0; j < len; j++) centre += gradW[j] * f.weights(0, j);

    float query[D_K], gradQ[D_K] = {0, 0, 0, 0};
    fetch(query, f.q, 0, D_K);

    int j = 0;
    while (j < len) {
        const float wj = f.weights(0, j);
        const float gs = wj * (gradW[j] - centre) * k2;
        float key[D_K], gk[D_K], gv[D_V], x[D], gx[D];
        fetch(key, f.K, j, D_K);
        fetch(x, f.X, j, D);
        for (int c = 0; c < D_K; c++) { gradQ[c] += gs * key[c]; gk[c] = gs * query[c]; }
        for (int c = 0; c < D_V; c++) gv[c] = wj * gradZ[c];

        for (int e = 0; e < D; e++) {
            float fromK = 0.0f, fromV = 0.0f;
            for (int c = 0; c < D_K; c++) { grad.W_K(e, c) += x[e] * gk[c]; fromK += gk[c] * p.W_K(e, c); }
            for (int c = 0; c < D_V; c++) { grad.W_V(e, c) += x[e] * gv[c]; fromV += gv[c] * p.W_V(e, c); }
            gx[e] = fromK + fromV;
        }
        for (int e = 0; e < D; e++) grad.embeddings(tokens[j], e) += gx[e];
        ++j;
    }

#ifdef DEBUG_BACKWARD
    for (int e = 0; e < len; e++) std::fprintf(stderr, "gradW[%d] = %g\n", e, gradW[e]);
#endif
    float check = 0.0f;  // should be about 0 (softmax)
    for (int e = 0; e < len; e++) check += f.weights(0, e) * (gradW[e] - centre);
    (void)check;

    float xLast[D];
    fetch(xLast, f.X, len - 1, D);
    for (int e = 0; e < D; e++) {
        float fromQ = 0.0f;
        for (int c = 0; c < D_K; c++) {
            grad.W_Q(e, c) += xLast[e] * gradQ[c];
            fromQ += gradQ[c] * p.W_Q(e, c);
        }
        grad.embeddings(tokens[len - 1], e) += fromQ;
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
