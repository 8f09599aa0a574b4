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

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    auto seqLen = tokens.size();
    auto vocabSize = size_t(p.W_out.cols);
    double invSqrt = 1.0 / std::sqrt(double(D_K));

    // dLoss/dLogits, in double
    std::vector<double> dLogits(vocabSize);
    for (size_t i = 0; i < vocabSize; ++i) {
        double oneHot = (int(i) == target) ? 1.0 : 0.0;
        dLogits[i] = (double(f.probs.data[i]) - oneHot) * loss_weight;
        grad.bias.data[i] += float(dLogits[i]);
    }

    // W_out and dz together
    std::vector<double> dZ(D_V, 0.0);
    for (size_t r = 0; r < size_t(D_V); ++r) {
        for (size_t i = 0; i < vocabSize; ++i) {
            grad.W_out.data[r * vocabSize + i] += float(f.z.data[r] * dLogits[i]);
            dZ[r] += dLogits[i] * p.W_out.data[r * vocabSize + i];
        }
    }

    // attention weights -> scores
    std::vector<double> dScore(seqLen);
    double weighted = 0.0;
    for (size_t j = 0; j < seqLen; ++j) {
        double g = 0.0;
        for (size_t c = 0; c < size_t(D_V); ++c) g += dZ[c] * f.V.data[j * D_V + c];
        dScore[j] = g;
        weighted += f.weights.data[j] * g;
    }
    for (auto j = 0u; j < seqLen; ++j) dScore[j] = f.weights.data[j] * (dScore[j] - weighted) * invSqrt;

    // position by position: key, value and their embedding row
    std::vector<double> dQuery(D_K, 0.0);
    size_t last = seqLen - 1;
    for (size_t j = 0; j < seqLen; ++j) {
        int tok = tokens[j];
        double a = f.weights.data[j];
        for (size_t c = 0; c < size_t(D_K); ++c) dQuery[c] += dScore[j] * f.K.data[j * D_K + c];
        for (size_t r = 0; r < size_t(D); ++r) {
            double x = f.X.data[j * D + r];
            double back = 0.0;
            for (size_t c = 0; c < size_t(D_K); ++c) {
                double dk = dScore[j] * f.q.data[c];
                grad.W_K.data[r * D_K + c] += float(x * dk);
                back += dk * p.W_K.data[r * D_K + c];
            }
            for (size_t c = 0; c < size_t(D_V); ++c) {
                double dv = a * dZ[c];
                grad.W_V.data[r * D_V + c] += float(x * dv);
                back += dv * p.W_V.data[r * D_V + c];
            }
            grad.embeddings.data[size_t(tok) * D + r] += float(back);
        }
    }

    // query at the last position
    for (size_t r = 0; r < size_t(D); ++r) {
        double back = 0.0;
        for (size_t c = 0; c < size_t(D_K); ++c) {
            grad.W_Q.data[r * D_K + c] += float(f.X.data[last * D + r] * dQuery[c]);
            back += dQuery[c] * p.W_Q.data[r * D_K + c];
        }
        grad.embeddings.data[size_t(tokens[last]) * D + r] += float(back);
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
