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

// W_Q's block and the last row's share of the input gradient
static Matrix query_part(const Params& p, const Forward& f, const Matrix& dQ, Params& grad) {
    const int last = f.X.rows - 1;
    Matrix xl(1, D);
    for (int r = 0; r < D; r++) xl(0, r) = f.X(last, r);
    grad.W_Q = add(grad.W_Q, matmul(transpose(xl), dQ));
    return matmul(dQ, transpose(p.W_Q));
}

// W_K and W_V blocks, and every row's share of the input gradient
static Matrix key_value_part(const Params& p, const Forward& f, const Matrix& dK, const Matrix& dV, Params& grad) {
    const Matrix xt = transpose(f.X);
    grad.W_V = add(grad.W_V, matmul(xt, dV));
    grad.W_K = add(grad.W_K, matmul(xt, dK));
    return add(matmul(dK, transpose(p.W_K)), matmul(dV, transpose(p.W_V)));
}

static Matrix output_part(const Params& p, const Forward& f, int target, float lw, Params& grad) {
    Matrix g = f.probs;
    g(0, target) -= 1.0f;
    g = scale(g, lw);
    grad.W_out = add(grad.W_out, matmul(transpose(f.z), g));
    grad.bias = add(grad.bias, g);
    return matmul(g, transpose(p.W_out));
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int T = int(tokens.size());
    const Matrix dZ = output_part(p, f, target, loss_weight, grad);
    const Matrix dV = matmul(transpose(f.weights), dZ);
    const Matrix dA = matmul(dZ, transpose(f.V));
    double m = 0.0;
    int j = 0;
    while (j < T) {
        m += double(f.weights(0, j)) * dA(0, j);
        j++;
    }
    Matrix dS(1, T);
    for (j = 0; j < T; j++) dS(0, j) = float(f.weights(0, j) * (dA(0, j) - m));
    dS = scale(dS, 1.0f / std::sqrt(float(D_K)));
    const Matrix dK = matmul(transpose(dS), f.q);
    const Matrix dQ = matmul(dS, f.K);
    const Matrix fromQ = query_part(p, f, dQ, grad);
    Matrix dX = key_value_part(p, f, dK, dV, grad);
    for (int r = 0; r < D; r++) dX(T - 1, r) += fromQ(0, r);
    for (int t = 0; t < T; t++)
        for (int r = 0; r < D; r++) grad.embeddings(tokens[t], r) += dX(t, r);
}

// ---------------------------------------------------------------------------
// The lesson: your gradient of the mean training loss against finite differences.

constexpr float STEP = 1e-2f;         // large enough that float rounding in the loss stays small
constexpr double TOLERANCE = 0.05;    // of the block's largest gradient entry; a wrong sign gives 2

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
                    worst / biggest < 0.01 ? "below 0.01" : ok ? "below 0.05" : "above 0.05", ok ? "yes" : "no");
    }
    std::printf("\n%d of 6 blocks match finite differences (step %g, tolerance %g of the block's largest entry)\n",
                matching, double(STEP), TOLERANCE);
    return 0;
}
