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
typedef std::size_t idx_t;

// one output row r: W_out's row r gets z_r times the logit gradient, and returns d z_r
static float out_row(const Params& p, const Forward& f, const std::vector<float>& gLogit, idx_t r, Params& grad)
{
    float sum = 0.0f;
    idx_t v = 0;
    while (v < gLogit.size())
    {
        sum += gLogit[v] * p.W_out(int(r), int(v));
        grad.W_out(int(r), int(v)) += f.z(0, int(r)) * gLogit[v];
        v++;
    }
    return sum;
}

// one embedding component r at position j: through the key and the value
static void kv_row(const Params& p, const Forward& f, idx_t j, idx_t r, float gScore, const float* gCtx,
                   float& into, Params& grad)
{
    const float xr = f.X(int(j), int(r));
    float e = 0.0f;
    idx_t c = 0;
    while (c < idx_t(D_K))
    {
        const float gk = gScore * f.q(0, int(c));
        grad.W_K(int(r), int(c)) += xr * gk;
        e += gk * p.W_K(int(r), int(c));
        c++;
    }
    for (c = 0; c < idx_t(D_V); c++)
    {
        const float gv = f.weights(0, int(j)) * gCtx[c];
        grad.W_V(int(r), int(c)) += xr * gv;
        e += gv * p.W_V(int(r), int(c));
    }
    into += e;
}

// one embedding component r of the last position: through the query
static void q_row(const Params& p, const Forward& f, idx_t last, idx_t r, const float* gQ, float& into, Params& grad)
{
    float e = 0.0f;
    for (idx_t c = 0; c < idx_t(D_K); c++)
    {
        grad.W_Q(int(r), int(c)) += f.X(int(last), int(r)) * gQ[c];
        e += gQ[c] * p.W_Q(int(r), int(c));
    }
    into += e;
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const idx_t n = tokens.size();
    const float root = 1.0f / std::sqrt(float(D_K));
    std::vector<float> gLogit(idx_t(f.probs.cols));
    for (idx_t v = 0; v < gLogit.size(); v++)
        gLogit[v] = (f.probs(0, int(v)) - (int(v) == target ? 1.0f : 0.0f)) * loss_weight;

    float gCtx[D_V];
    idx_t r = 0;
    while (r < idx_t(D_V))
    {
        gCtx[r] = out_row(p, f, gLogit, r, grad);
        r++;
    }
    for (idx_t v = 0; v < gLogit.size(); v++) grad.bias(0, int(v)) += gLogit[v];

    std::vector<float> gA(n), gS(n);
    float wsum = 0.0f;
    for (idx_t j = 0; j < n; j++)
    {
        float a = 0.0f;
        for (idx_t c = 0; c < idx_t(D_V); c++) a += gCtx[c] * f.V(int(j), int(c));
        gA[j] = a;
        wsum += a * f.weights(0, int(j));
    }
    for (idx_t j = 0; j < n; j++) gS[j] = f.weights(0, int(j)) * (gA[j] - wsum) * root;

    float gQ[D_K] = {};
    idx_t j = 0;
    while (j < n)
    {
        for (idx_t c = 0; c < idx_t(D_K); c++) gQ[c] += gS[j] * f.K(int(j), int(c));
        for (r = 0; r < idx_t(D); r++)
            kv_row(p, f, j, r, gS[j], gCtx, grad.embeddings(tokens[j], int(r)), grad);
        j++;
    }
    for (r = 0; r < idx_t(D); r++) q_row(p, f, n - 1, r, gQ, grad.embeddings(tokens[n - 1], int(r)), grad);
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
