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

using Mat = Matrix;

static Mat last_row_of(const Mat& X)
{
    Mat out(1, X.cols);
    for (int c = 0; c < X.cols; c++) out(0, c) = X(X.rows - 1, c);
    return out;
}

static void accumulate(Mat& into, const Mat& what) { into = add(into, what); }

// The whole backward in one go, matrix by matrix.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int len = int(tokens.size());

    // output: logits = z W_out + b
    Mat e = f.probs;
    e(0, target) = e(0, target) - 1.0f;
    e = scale(e, loss_weight);
    Mat gz = matmul(e, transpose(p.W_out));
    accumulate(grad.W_out, matmul(transpose(f.z), e));
    accumulate(grad.bias, e);

    // values first: dV = a^T gz, independent of the scores
    Mat gV = matmul(transpose(f.weights), gz);

    // z = a V
    Mat ga = matmul(gz, transpose(f.V));
    const float centre = dot(ga.row(0), f.weights.row(0), len);
    Mat gs(1, len);
    int j = len - 1;
    while (j >= 0) {
        gs(0, j) = f.weights(0, j) * (ga(0, j) - centre);
        j--;
    }
    gs = scale(gs, 1.0f / std::sqrt(float(D_K)));

    Mat gq = matmul(gs, f.K);
    Mat gK = matmul(transpose(gs), f.q);
    Mat XT = transpose(f.X);
    accumulate(grad.W_V, matmul(XT, gV));
    accumulate(grad.W_K, matmul(XT, gK));
    Mat gX = add(matmul(gK, transpose(p.W_K)), matmul(gV, transpose(p.W_V)));

    accumulate(grad.W_Q, matmul(transpose(last_row_of(f.X)), gq));
    const Mat back = matmul(gq, transpose(p.W_Q));
    for (int c = 0; c < D; c++) gX(len - 1, c) += back(0, c);

    for (int pos = 0; pos < len; pos++)
        for (int c = 0; c < D; c++) grad.embeddings(tokens[pos], c) += gX(pos, c);
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
