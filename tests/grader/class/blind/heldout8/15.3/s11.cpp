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
#include <array>

using Row8 = std::array<float, D>;

// d logits W_out^T, and W_out / bias collect z^T d logits and d logits
static std::vector<float> undo_output(const Params& p, const Forward& f, const std::vector<float>& gOut, Params& grad)
{
    const int words = static_cast<int>(gOut.size());
    std::vector<float> gZ(D_V);
    size_t a = 0;
    while (a < size_t(D_V)) {
        gZ[a] = dot(gOut.data(), p.W_out.row(int(a)), words);
        for (int k = 0; k < words; ++k) grad.W_out(int(a), k) += f.z(0, int(a)) * gOut[k];
        ++a;
    }
    for (int k = 0; k < words; ++k) grad.bias(0, k) += gOut[k];
    return gZ;
}

// W_K and W_V from the sums over positions
static void undo_key_value(Params& grad, const Row8& sumS, const Row8& sumA, const float* qs, const float* gZ)
{
    for (int a = 0; a < D; ++a) {
        for (int c = 0; c < D_V; ++c) grad.W_V(a, c) += sumA[a] * gZ[c];
        for (int c = 0; c < D_K; ++c) grad.W_K(a, c) += sumS[a] * qs[c];
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int len = int(tokens.size());
    std::vector<float> gOut(p.bias.cols);
    for (size_t k = 0; k < gOut.size(); ++k) {
        const float hot = int(k) == target ? 1.0f : 0.0f;
        gOut[k] = (f.probs(0, int(k)) - hot) * loss_weight;
    }
    const std::vector<float> gZ = undo_output(p, f, gOut, grad);

    std::vector<float> gW(len), gS(len);
    for (int i = 0; i < len; ++i) gW[i] = dot(gZ.data(), f.V.row(i), D_V);
    const float centre = dot(f.weights.row(0), gW.data(), len);
    for (int i = 0; i < len; ++i) gS[i] = f.weights(0, i) * (gW[i] - centre);

    const float half = 1.0f / std::sqrt(float(D_K));
    float qs[D_K];  // q / sqrt(D_K), kept whole
    for (int c = 0; c < D_K; ++c) qs[c] = f.q(0, c) * half;

    Row8 kBack{}, vBack{};
    for (int a = 0; a < D; ++a) {
        for (int c = 0; c < D_V; ++c) vBack[a] += gZ[c] * p.W_V(a, c);
        for (int c = 0; c < D_K; ++c) kBack[a] += qs[c] * p.W_K(a, c);
    }
    Row8 sumS{}, sumA{};
    int i = 0;
    while (i < len) {
        const float w = f.weights(0, i);
        const float s = gS[i];
        float* e = grad.embeddings.row(tokens[i]);
        for (int a = 0; a < D; ++a) {
            sumA[a] += w * f.X(i, a);
            sumS[a] += s * f.X(i, a);
            e[a] += s * kBack[a] + w * vBack[a];
        }
        ++i;
    }
    undo_key_value(grad, sumS, sumA, qs, gZ.data());

    std::array<float, D_K> gQ{};
    for (int j = 0; j < len; ++j)
        for (int c = 0; c < D_K; ++c) gQ[c] += gS[j] * f.K(j, c) * half;
    for (int a = 0; a < D; ++a) {
        grad.embeddings(tokens[len - 1], a) += dot(gQ.data(), p.W_Q.row(a), D_K);
        for (int c = 0; c < D_K; ++c) grad.W_Q(a, c) += f.X(len - 1, a) * gQ[c];
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
