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
typedef std::vector<float> fvec;

// position j: its key's and value's gradients go into W_K, W_V and the embedding of its token
static void position_back(size_t j, const Params& p, const std::vector<int>& tokens, const Forward& f,
                          const fvec& ds, const fvec& dz, float inv, Params& grad, fvec& dq)
{
    float dk[D_K], dv[D_V];
    size_t c = 0;
    while (c < (size_t)D_K)
    {
        const float g = ds[j] * inv;
        dq[c] += g * f.K((int)j, (int)c);
        dk[c] = g * f.q(0, (int)c);
        c++;
    }
    for (c = 0; c < (size_t)D_V; c++) dv[c] = f.weights(0, (int)j) * dz[c];
    size_t r = 0;
    while (r < (size_t)D)
    {
        const float x = f.X((int)j, (int)r);
        float back = 0.0f;
        for (c = 0; c < (size_t)D_K; c++)
        {
            grad.W_K((int)r, (int)c) += x * dk[c];
            back += dk[c] * p.W_K((int)r, (int)c);
        }
        for (c = 0; c < (size_t)D_V; c++)
        {
            grad.W_V((int)r, (int)c) += x * dv[c];
            back += dv[c] * p.W_V((int)r, (int)c);
        }
        grad.embeddings(tokens[j], (int)r) += back;
        r++;
    }
}

// the output layer: bias, W_out, and the context vector's gradient
static fvec output_back(const Params& p, const Forward& f, int target, float lw, Params& grad)
{
    const size_t V = (size_t)p.bias.cols;
    fvec dl(V), dz(D_V, 0.0f);
    for (size_t i = 0; i < V; i++) dl[i] = lw * (f.probs(0, (int)i) - ((int)i == target ? 1.0f : 0.0f));
    size_t r = 0;
    while (r < (size_t)D_V)
    {
        for (size_t i = 0; i < V; i++)
        {
            dz[r] += dl[i] * p.W_out((int)r, (int)i);
            grad.W_out((int)r, (int)i) += f.z(0, (int)r) * dl[i];
        }
        r++;
    }
    for (size_t i = 0; i < V; i++) grad.bias(0, (int)i) += dl[i];
    return dz;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const size_t n = tokens.size();
    const float inv = 1.0f / std::sqrt((float)D_K);
    const fvec dz = output_back(p, f, target, loss_weight, grad);

    fvec da(n), ds(n);
    float avg = 0.0f;
    size_t j = 0;
    while (j < n)
    {
        float s = 0.0f;
        for (size_t c = 0; c < (size_t)D_V; c++) s += dz[c] * f.V((int)j, (int)c);
        da[j] = s;
        avg += f.weights(0, (int)j) * s;
        j++;
    }
    for (j = 0; j < n; j++) ds[j] = f.weights(0, (int)j) * (da[j] - avg);

    fvec dq(D_K, 0.0f);
    for (j = 0; j < n; j++) position_back(j, p, tokens, f, ds, dz, inv, grad, dq);

    const size_t last = n - 1;
    for (size_t r = 0; r < (size_t)D; r++)
    {
        float back = 0.0f;
        for (size_t c = 0; c < (size_t)D_K; c++)
        {
            grad.W_Q((int)r, (int)c) += f.X((int)last, (int)r) * dq[c];
            back += dq[c] * p.W_Q((int)r, (int)c);
        }
        grad.embeddings(tokens[last], (int)r) += back;
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
