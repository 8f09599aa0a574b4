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

// the output row: bias, W_out and the context's gradient
static void back_output(const Params& p, const Forward& f, int target, float lw, Params& grad, Matrix& gz) {
    const size_t nv = size_t(p.W_out.cols);
    Matrix gl(1, int(nv));
    size_t i = 0;
    while (i < nv) {
        gl(0, int(i)) = lw * (f.probs(0, int(i)) - (int(i) == target ? 1.0f : 0.0f));
        grad.bias(0, int(i)) += gl(0, int(i));
        i++;
    }
    size_t r = 0;
    while (r < size_t(D_V)) {
        i = 0;
        while (i < nv) {
            grad.W_out(int(r), int(i)) += f.z(0, int(r)) * gl(0, int(i));
            gz(0, int(r)) += gl(0, int(i)) * p.W_out(int(r), int(i));
            i++;
        }
        r++;
    }
}

// one position's value row: its weight's gradient and its value's gradient
static void back_value_row(const Forward& f, const Matrix& gz, Matrix& ga, Matrix& gv, size_t j) {
    size_t c = 0;
    while (c < size_t(D_V)) {
        ga(0, int(j)) += gz(0, int(c)) * f.V(int(j), int(c));
        gv(int(j), int(c)) = f.weights(0, int(j)) * gz(0, int(c));
        c++;
    }
}

// one position's score: the query collects the key, the key gets the query
static void back_score_row(const Forward& f, float gs, float sc, Matrix& gq, Matrix& gk, size_t j) {
    size_t c = 0;
    while (c < size_t(D_K)) {
        gq(0, int(c)) += gs * f.K(int(j), int(c)) * sc;
        gk(int(j), int(c)) = gs * f.q(0, int(c)) * sc;
        c++;
    }
}

// one position's key and value projections, into W_K, W_V and the position's row of gx
static void back_projection_row(const Params& p, const Forward& f, const Matrix& gk, const Matrix& gv,
                                Params& grad, Matrix& gx, size_t j) {
    size_t r = 0;
    while (r < size_t(D)) {
        size_t c = 0;
        while (c < size_t(D_K)) {
            grad.W_K(int(r), int(c)) += f.X(int(j), int(r)) * gk(int(j), int(c));
            gx(int(j), int(r)) += gk(int(j), int(c)) * p.W_K(int(r), int(c));
            c++;
        }
        c = 0;
        while (c < size_t(D_V)) {
            grad.W_V(int(r), int(c)) += f.X(int(j), int(r)) * gv(int(j), int(c));
            gx(int(j), int(r)) += gv(int(j), int(c)) * p.W_V(int(r), int(c));
            c++;
        }
        r++;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const size_t n = tokens.size();
    const float sc = 1.0f / std::sqrt((float)D_K);
    Matrix gz(1, D_V);
    back_output(p, f, target, loss_weight, grad, gz);

    Matrix ga(1, int(n)), gv(int(n), D_V);
    for (size_t j = 0; j < n; j++) back_value_row(f, gz, ga, gv, j);

    float centre = 0;
    for (size_t j = 0; j < n; j++) centre += f.weights(0, int(j)) * ga(0, int(j));

    Matrix gq(1, D_K), gk(int(n), D_K);
    for (size_t j = 0; j < n; j++) back_score_row(f, f.weights(0, int(j)) * (ga(0, int(j)) - centre), sc, gq, gk, j);

    Matrix gx(int(n), D);
    size_t r = 0;
    while (r < size_t(D)) {
        for (size_t c = 0; c < size_t(D_K); c++) {
            grad.W_Q(int(r), int(c)) += f.X(int(n) - 1, int(r)) * gq(0, int(c));
            gx(int(n) - 1, int(r)) += gq(0, int(c)) * p.W_Q(int(r), int(c));
        }
        r++;
    }
    for (size_t j = 0; j < n; j++) back_projection_row(p, f, gk, gv, grad, gx, j);

    for (size_t j = 0; j < n; j++)
        for (r = 0; r < size_t(D); r++) grad.embeddings(tokens[j], int(r)) += gx(int(j), int(r));
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
