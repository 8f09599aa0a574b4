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
// Backward through the model, one block at a time, last block first.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    int T = tokens.size();
    int vocabSize = p.bias.cols;
    float k = 1.0f / std::sqrt((float)D_K);

    // output layer
    std::vector<float> dLog(vocabSize);
    for (int v = 0; v < vocabSize; v++) {
        dLog[v] = loss_weight * f.probs(0, v);
        if (v == target) dLog[v] -= loss_weight;
    }
    std::vector<float> dCtx(D_V, 0.0f);
    for (int v = 0; v < vocabSize; v++) {
        grad.bias(0, v) += dLog[v];
        for (int i = 0; i < D_V; i++) {
            grad.W_out(i, v) += dLog[v] * f.z(0, i);
            dCtx[i] += dLog[v] * p.W_out(i, v);
        }
    }

    // attention
    std::vector<float> dWeight(T), dScore(T);
    float mix = 0.0f;
    for (int t = 0; t < T; t++) {
        dWeight[t] = dot(dCtx.data(), f.V.row(t), D_V);
        mix += dWeight[t] * f.weights(0, t);
    }
    for (int t = 0; t < T; t++) dScore[t] = (dWeight[t] - mix) * f.weights(0, t);

    // query
    std::vector<float> dQuery(D_K, 0.0f);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < D_K; i++) dQuery[i] += k * dScore[t] * f.K(t, i);
    for (int i = 0; i < D; i++)
        for (int j = 0; j < D_K; j++) grad.W_Q(i, j) += f.X(T - 1, i) * dQuery[j];

    // keys and values, and the embedding rows they came from
    for (int t = 0; t < T; t++) {
        for (int i = 0; i < D; i++) {
            float back = 0.0f;
            for (int j = 0; j < D_K; j++) {
                float dKey = k * dScore[t] * f.q(0, j);
                grad.W_K(i, j) += f.X(t, i) * dKey;
                back += dKey * p.W_K(i, j);
            }
            for (int j = 0; j < D_V; j++) {
                float dVal = f.weights(0, t) * dCtx[j];
                grad.W_V(i, j) += f.X(t, i) * dVal;
                back += dVal * p.W_V(i, j);
            }
            grad.embeddings(tokens[t], i) += back;
        }
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
