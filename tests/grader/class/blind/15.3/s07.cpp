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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int n = (int)tokens.size();
    const int vocab = p.W_out.cols;
    const float factor = 1.0f / std::sqrt((float)D_K);

    std::vector<float> gradLogit(vocab);
    int i = 0;
    while (i < vocab)
    {
        gradLogit[i] = loss_weight * (f.probs(0, i) - (i == target ? 1.0f : 0.0f));
        grad.bias(0, i) += gradLogit[i];
        i++;
    }

    std::vector<float> gradZ(D_V, 0.0f);
    for (int row = 0; row < D_V; row++)
        for (int col = 0; col < vocab; col++)
        {
            gradZ[row] += gradLogit[col] * p.W_out(row, col);
            grad.W_out(row, col) += f.z(0, row) * gradLogit[col];
        }

    std::vector<float> gradA(n, 0.0f);
    Matrix gradV(n, D_V);
    for (int pos = 0; pos < n; pos++)
        for (int col = 0; col < D_V; col++)
        {
            gradV(pos, col) = f.weights(0, pos) * gradZ[col];
            gradA[pos] += gradZ[col] * f.V(pos, col);
        }

    float mean = 0;
    for (int pos = 0; pos < n; pos++)
        mean += f.weights(0, pos) * gradA[pos];
    std::vector<float> gradS(n);
    for (int pos = 0; pos < n; pos++)
        gradS[pos] = f.weights(0, pos) * (gradA[pos] - mean);

    std::vector<float> gradQ(D_K, 0.0f);
    Matrix gradK(n, D_K);
    for (int pos = 0; pos < n; pos++)
        for (int col = 0; col < D_K; col++)
        {
            gradK(pos, col) = gradS[pos] * f.q(0, col) * factor;
            gradQ[col] += gradS[pos] * f.K(pos, col) * factor;
        }

    Matrix gradX(n, D);
    for (int row = 0; row < D; row++)
        for (int col = 0; col < D_K; col++)
        {
            gradX(n - 1, row) += gradQ[col] * p.W_Q(row, col);
            grad.W_Q(row, col) += f.X(n - 1, row) * gradQ[col];
        }
    int pos = 0;
    while (pos < n)
    {
        for (int row = 0; row < D; row++)
        {
            for (int col = 0; col < D_K; col++)
            {
                grad.W_K(row, col) += f.X(pos, row) * gradK(pos, col);
                gradX(pos, row) += gradK(pos, col) * p.W_K(row, col);
            }
            for (int col = 0; col < D_V; col++)
            {
                grad.W_V(row, col) += f.X(pos, row) * gradV(pos, col);
                gradX(pos, row) += gradV(pos, col) * p.W_V(row, col);
            }
        }
        pos++;
    }

    for (int k = 0; k < n; k++)
        for (int row = 0; row < D; row++)
            grad.embeddings(tokens[k], row) += gradX(k, row);
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
