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
// Backprop through the colour model. The gradient of each stage is
// kept in a small struct so the stages can be read one at a time.
struct Grads {
    Matrix out_err;   // error at the logits
    Matrix ctx_err;   // error at the context vector
    Matrix key_err;   // per position
    Matrix val_err;   // per position
    Matrix qry_err;
};

namespace {
inline void accumulate(Matrix& into, const Matrix& what) {
    size_t k = 0;
    while (k < into.data.size()) {
        into.data[k] += what.data[k];
        ++k;
    }
}

Matrix last_row(const Matrix& m) {
    Matrix r(1, m.cols);
    for (int c = 0; c < m.cols; c++) r(0, c) = m(m.rows - 1, c);
    return r;
}

// the softmax of the attention, undone; the 1/sqrt(d) of the scores folded in
Matrix undo_softmax(const Matrix& attn, const Matrix& d_attn, float factor) {
    const int n = attn.cols;
    float centre = 0.0f;
    for (int i = 0; i < n; i++) centre += attn(0, i) * d_attn(0, i);
    Matrix out(1, n);
    for (int i = 0; i < n; i++) out(0, i) = attn(0, i) * (d_attn(0, i) - centre) * factor;
    return out;
}
}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    Grads g;
    const int len = int(tokens.size());

    g.out_err = f.probs;
    g.out_err(0, target) = g.out_err(0, target) - 1.0f;
    g.out_err = scale(g.out_err, loss_weight);

    g.ctx_err = matmul(g.out_err, transpose(p.W_out));  // 1 x D_V
    accumulate(grad.W_out, matmul(transpose(f.z), g.out_err));
    accumulate(grad.bias, g.out_err);

    g.val_err = matmul(transpose(f.weights), g.ctx_err);  // len x D_V
    const Matrix d_attn = matmul(g.ctx_err, transpose(f.V));
    const Matrix d_scores = undo_softmax(f.weights, d_attn, 1.0f / std::sqrt(float(D_K)));

    g.key_err = matmul(transpose(d_scores), f.q);
    g.qry_err = matmul(d_scores, f.K);

    const Matrix Xt = transpose(f.X);
    accumulate(grad.W_V, matmul(Xt, g.val_err));
    accumulate(grad.W_K, matmul(Xt, g.key_err));
    accumulate(grad.W_Q, matmul(transpose(last_row(f.X)), g.qry_err));

    Matrix d_rows = add(matmul(g.key_err, transpose(p.W_K)), matmul(g.val_err, transpose(p.W_V)));
    const Matrix from_query = matmul(g.qry_err, transpose(p.W_Q));
    for (int c = 0; c < D; c++) d_rows(len - 1, c) += from_query(0, c);

    for (int pos = 0; pos < len; pos++) {
        float* dst = grad.embeddings.row(tokens[pos]);
        for (int c = 0; c < D; c++) dst[c] += d_rows(pos, c);
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
