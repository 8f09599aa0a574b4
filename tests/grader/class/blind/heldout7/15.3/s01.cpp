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

namespace {

// Walks the forward pass backwards. Each member function undoes one layer and
// leaves its result in a member for the next one.
class ColourBackprop {
  public:
    ColourBackprop(const Params& params, const std::vector<int>& toks, const Forward& fw, Params& out)
        : P(params), tok(toks), F(fw), G(out), len(int(toks.size())) {}

    void run(int target, float weight) {
        logitsLayer(target, weight);
        mixLayer();
        softmaxLayer();
        scoreLayer();
        projectionLayers();
    }

  private:
    const Params& P;
    const std::vector<int>& tok;
    const Forward& F;
    Params& G;
    int len;

    Matrix dContext{1, D_V};
    Matrix dWeight;
    Matrix dScore;
    Matrix dQuery{1, D_K};

    void logitsLayer(int target, float weight) {
        Matrix dLogit = F.probs;
        dLogit(0, target) -= 1.0f;
        dLogit = scale(dLogit, weight);
        G.bias = add(G.bias, dLogit);
        G.W_out = add(G.W_out, matmul(transpose(F.z), dLogit));
        dContext = matmul(dLogit, transpose(P.W_out));
    }

    void mixLayer() {
        // z = weights V, so dWeights = dz V^T
        dWeight = matmul(dContext, transpose(F.V));
    }

    void softmaxLayer() {
        const float avg = dot(dWeight.row(0), F.weights.row(0), len);
        dScore = Matrix(1, len);
        for (int j = 0; j < len; j++) dScore(0, j) = F.weights(0, j) * (dWeight(0, j) - avg);
    }

    void scoreLayer() {
        const float k = 1.0f / std::sqrt(float(D_K));
        dScore = scale(dScore, k);              // both sides of the dot product see the 1/sqrt(d_k)
        dQuery = matmul(dScore, F.K);           // (1 x T)(T x D_K)
    }

    void projectionLayers() {
        Matrix dK = matmul(transpose(dScore), F.q);          // (T x 1)(1 x D_K)
        Matrix dV = matmul(transpose(F.weights), dContext);  // (T x 1)(1 x D_V)
        Matrix Xt = transpose(F.X);
        G.W_K = add(G.W_K, matmul(Xt, dK));
        G.W_V = add(G.W_V, matmul(Xt, dV));
        Matrix dX = add(matmul(dK, transpose(P.W_K)), matmul(dV, transpose(P.W_V)));

        Matrix lastRow(1, D);
        for (int r = 0; r < D; r++) lastRow(0, r) = F.X(len - 1, r);
        G.W_Q = add(G.W_Q, matmul(transpose(lastRow), dQuery));
        Matrix dLast = matmul(dQuery, transpose(P.W_Q));
        for (int r = 0; r < D; r++) dX(len - 1, r) += dLast(0, r);

        for (int j = 0; j < len; j++)
            for (int r = 0; r < D; r++) G.embeddings(tok[j], r) += dX(j, r);
    }
};

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    ColourBackprop(p, tokens, f, grad).run(target, loss_weight);
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
