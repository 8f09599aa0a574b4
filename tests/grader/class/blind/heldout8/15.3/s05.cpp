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
// Everything as matrices: X = P E with P the one-hot rows of the tokens, so dE = P^T dX.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = int(tokens.size());
    const int vocab = p.embeddings.rows;

    Matrix onehot_target(1, p.bias.cols);
    onehot_target(0, target) = 1.0f;
    Matrix d_logits = scale(add(f.probs, scale(onehot_target, -1.0f)), loss_weight);
    grad.bias = add(grad.bias, d_logits);
    grad.W_out = add(grad.W_out, matmul(transpose(f.z), d_logits));
    Matrix d_z = matmul(d_logits, transpose(p.W_out));           // 1 x D_V

    Matrix d_a = matmul(d_z, transpose(f.V));                      // 1 x len
    Matrix mean_term = matmul(f.weights, transpose(d_a));          // 1 x 1
    Matrix d_s(1, len);
    for (int j = 0; j < len; j++) d_s(0, j) = f.weights(0, j) * (d_a(0, j) - mean_term(0, 0));
    d_s = scale(d_s, 1.0f / std::sqrt(float(D_K)));

    Matrix d_q = matmul(d_s, f.K);                                 // 1 x D_K
    Matrix d_K = matmul(transpose(d_s), f.q);                      // len x D_K
    Matrix d_V = matmul(transpose(f.weights), d_z);                // len x D_V

    Matrix x_last(1, D);
    for (int c = 0; c < D; c++) x_last(0, c) = f.X(len - 1, c);
    grad.W_Q = add(grad.W_Q, matmul(transpose(x_last), d_q));
    grad.W_K = add(grad.W_K, matmul(transpose(f.X), d_K));
    grad.W_V = add(grad.W_V, matmul(transpose(f.X), d_V));

    Matrix d_X = add(matmul(d_K, transpose(p.W_K)), matmul(d_V, transpose(p.W_V)));
    Matrix d_xq = matmul(d_q, transpose(p.W_Q));
    for (int c = 0; c < D; c++) d_X(len - 1, c) += d_xq(0, c);

    Matrix P(len, vocab);
    for (int t = 0; t < len; t++) P(t, tokens[t]) = 1.0f;
    grad.embeddings = add(grad.embeddings, matmul(transpose(P), d_X));
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
