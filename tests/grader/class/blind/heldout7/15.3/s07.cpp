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

#include <functional>

// Backprop through the colour-recall model, in double precision to be safe.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    using Vec = std::vector<double>;
    const size_t T = tokens.size();
    const double invRoot = 1.0 / std::sqrt(double(D_K));

    // y = x M  ->  dx = dy M^T ; dM += x^T dy   (x is a row of length M.rows)
    auto linearBack = [](const float* x, const Vec& dy, const Matrix& M, Matrix& dM, Vec& dx) {
        for (int r = 0; r < M.rows; r++) {
            double back = 0.0;
            for (int c = 0; c < M.cols; c++) {
                dM(r, c) += float(double(x[r]) * dy[c]);
                back += dy[c] * double(M(r, c));
            }
            dx[r] += back;
        }
    };

    Vec dLogits(p.bias.cols);
    for (int i = 0; i < p.bias.cols; i++)
        dLogits[i] = loss_weight * (double(f.probs(0, i)) - (i == target));
    for (int i = 0; i < p.bias.cols; i++) grad.bias(0, i) += float(dLogits[i]);

    Vec dZ(D_V, 0.0);
    linearBack(f.z.row(0), dLogits, p.W_out, grad.W_out, dZ);

    Vec dA(T, 0.0), dS(T, 0.0);
    double avg = 0.0;
    for (size_t j = 0; j < T; j++) {
        for (int c = 0; c < D_V; c++) dA[j] += dZ[c] * f.V(int(j), c);
        avg += dA[j] * f.weights(0, int(j));
    }
    for (size_t j = 0; j < T; j++) dS[j] = f.weights(0, int(j)) * (dA[j] - avg) * invRoot;

    Vec dQ(D_K, 0.0);
    for (size_t j = 0; j < T; j++)
        for (int c = 0; c < D_K; c++) dQ[c] += dS[j] * f.K(int(j), c);

    std::function<void(size_t)> position = [&](size_t j) {
        Vec dk(D_K), dv(D_V), dx(D, 0.0);
        for (int c = 0; c < D_K; c++) dk[c] = dS[j] * f.q(0, c);
        for (int c = 0; c < D_V; c++) dv[c] = f.weights(0, int(j)) * dZ[c];
        linearBack(f.X.row(int(j)), dk, p.W_K, grad.W_K, dx);
        linearBack(f.X.row(int(j)), dv, p.W_V, grad.W_V, dx);
        for (int r = 0; r < D; r++) grad.embeddings(tokens[j], r) += float(dx[r]);
    };
    for (size_t j = T; j-- > 0;) position(j);

    // the query only came from the last position
    const float* xLast = f.X.row(int(T) - 1);
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += float(double(xLast[r]) * dQ[c]);
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
