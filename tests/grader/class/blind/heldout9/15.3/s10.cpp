#include <cmath>
#include <cstdio>
#include <vector>

#include "colour_recall.hpp"

/*
 * Backward pass.
 * Goes through the positions from the first to the last; the query's own
 * contribution is added at the end.
 */
static void query_back(const Params& p, const Forward& f, int tok_last, int last, const float* gq, Params& grad)
{
    for (int i = 0; i < D; ++i)
    {
        float acc = 0.0f;
        for (int k = 0; k < D_K; ++k)
        {
            acc += p.W_Q(i, k) * gq[k];
            grad.W_Q(i, k) += f.X(last, i) * gq[k];
        }
        grad.embeddings(tok_last, i) += acc;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    const int n = (int)tokens.size();
    const float sc = 1.0f / std::sqrt((float)D_K);

    float gctx[D_V] = {0.0f};
    int w = 0;
    while (w < p.W_out.cols)
    {
        const float g = loss_weight * (w == target ? f.probs(0, w) - 1.0f : f.probs(0, w));
        for (int m = 0; m < D_V; ++m)
        {
            gctx[m] += g * p.W_out(m, w);
            grad.W_out(m, w) += f.z(0, m) * g;
        }
        grad.bias(0, w) += g;
        ++w;
    }

    std::vector<float> gatt(n, 0.0f);
    float mixed = 0.0f;
    for (int j = 0; j < n; ++j)
    {
        for (int m = 0; m < D_V; ++m) gatt[j] += f.V(j, m) * gctx[m];
        mixed += gatt[j] * f.weights(0, j);
    }

    float gq[D_K] = {0.0f};
    for (int j = 0; j < n; ++j)
    {
        const float aj = f.weights(0, j);
        const float gs = aj * (gatt[j] - mixed) * sc;
        for (int m = 0; m < D_K; ++m) gq[m] += gs * f.K(j, m);

        float gx[D] = {0.0f};
        int i = 0;
        while (i < D)
        {
            for (int m = 0; m < D_K; ++m)
            {
                gx[i] += p.W_K(i, m) * (gs * f.q(0, m));
                grad.W_K(i, m) += f.X(j, i) * (gs * f.q(0, m));
            }
            for (int m = 0; m < D_V; ++m)
            {
                gx[i] += p.W_V(i, m) * (aj * gctx[m]);
                grad.W_V(i, m) += f.X(j, i) * (aj * gctx[m]);
            }
            grad.embeddings(tokens[j], i) += gx[i];
            ++i;
        }
    }

    query_back(p, f, tokens[n - 1], n - 1, gq, grad);
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
