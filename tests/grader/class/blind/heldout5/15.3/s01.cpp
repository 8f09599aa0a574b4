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

namespace attn_grad {

using M = Matrix;

// logits layer: fills bias and W_out, hands back dL/dz
static M logits_back(const Params& prm, const Forward& fw, int tgt, float w, Params& g) {
    M gl(1, fw.probs.cols);
    for (int i = 0; i < fw.probs.cols; i++) gl(0, i) = (fw.probs(0, i) + (i == tgt ? -1.0f : 0.0f)) * w;
    g.W_out = add(g.W_out, matmul(transpose(fw.z), gl));
    g.bias = add(g.bias, gl);
    return matmul(gl, transpose(prm.W_out));
}

// softmax of the scores, already divided by sqrt(D_K)
static M scores_back(const Forward& fw, const M& gz) {
    const int n = fw.weights.cols;
    M ga = matmul(gz, transpose(fw.V));
    float mean = 0.0f;
    for (int s = 0; s < n; s++) mean += fw.weights(0, s) * ga(0, s);
    M gs(1, n);
    for (int s = 0; s < n; s++) gs(0, s) = fw.weights(0, s) * (ga(0, s) - mean);
    const float k = 1.0f / std::sqrt((float)D_K);
    return scale(gs, k);
}

}  // namespace attn_grad

using namespace attn_grad;

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = (int)tokens.size();
    M gz = logits_back(p, f, target, loss_weight, grad);
    M gs = scores_back(f, gz);

    M xt = transpose(f.X);                       // D x T, used twice
    M gkeys = matmul(transpose(gs), f.q);        // T x D_K
    M gvals = matmul(transpose(f.weights), gz);  // T x D_V
    grad.W_K = add(grad.W_K, matmul(xt, gkeys));
    grad.W_V = add(grad.W_V, matmul(xt, gvals));

    M last_row(1, D);
    for (int k = 0; k < D; k++) last_row(0, k) = f.X(len - 1, k);
    M gquery = matmul(gs, f.K);                  // 1 x D_K
    grad.W_Q = add(grad.W_Q, matmul(transpose(last_row), gquery));

    M gx_q = matmul(gquery, transpose(p.W_Q));
    M gx = add(matmul(gkeys, transpose(p.W_K)), matmul(gvals, transpose(p.W_V)));
    for (int k = 0; k < D; k++) gx(len - 1, k) += gx_q(0, k);
    for (int pos = 0; pos < len; pos++) {
        const int id = tokens[pos];
        for (int k = 0; k < D; k++) grad.embeddings(id, k) += gx(pos, k);
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
