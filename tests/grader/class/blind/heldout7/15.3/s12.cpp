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
    auto& gE = grad.embeddings;
    auto& gQ = grad.W_Q;
    auto& gK = grad.W_K;
    auto& gV = grad.W_V;
    const int n = int(tokens.size());
    const float rs = 0.5f;  // 1/sqrt(D_K), D_K is 4

    float dz[D_V] = {0};
    int i = 0;
    for (float pr : f.probs.data) {
        const float g = loss_weight * (i == target ? pr - 1.0f : pr);
        grad.bias.data[i] += g;
        for (int r = 0; r < D_V; r++) {
            grad.W_out(r, i) += g * f.z.data[r];
            dz[r] += g * p.W_out(r, i);
        }
        ++i;
    }

    std::vector<float> ds(n);
    float mean = 0;
    for (int j = 0; j < n; j++) {
        ds[j] = dot(dz, f.V.row(j), D_V);
        mean += ds[j] * f.weights.data[j];
    }
    for (int j = 0; j < n; j++) ds[j] = (ds[j] - mean) * f.weights.data[j] * rs;

    // each position: key and value, straight into the weights and its own embedding row
    float dq[D_K] = {0};
    for (int j = 0; j < n; j++) {
        const float a = f.weights.data[j];
        float* e = gE.row(tokens[j]);
        const float* x = f.X.row(j);
        for (int c = 0; c < D_K; c++) dq[c] += ds[j] * f.K(j, c);
        for (int r = 0; r < D; r++) {
            float back = 0;
            for (int c = 0; c < D_K; c++) {
                gK(r, c) += x[r] * ds[j] * f.q.data[c];
                back += ds[j] * f.q.data[c] * p.W_K(r, c);
            }
            for (int c = 0; c < D_V; c++) {
                gV(r, c) += x[r] * a * dz[c];
                back += a * dz[c] * p.W_V(r, c);
            }
            e[r] += back;
        }
    }
    float* e = gE.row(tokens[n - 1]);
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D_K; c++) {
            gQ(r, c) += f.X(n - 1, r) * dq[c];
            e[r] += dq[c] * p.W_Q(r, c);
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
