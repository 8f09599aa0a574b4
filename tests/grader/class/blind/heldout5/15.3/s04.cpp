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

/* backward: by hand, C style, scratch from calloc */
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    int T, V, i, j, r, c;
    float *dl, *dz, *da, *ds, *dq, *dx;
    float sum, s2;

    T = (int)tokens.size();
    V = p.bias.cols;
    s2 = 1.0f / sqrtf((float)D_K);
    dl = (float*)calloc(V, sizeof(float));
    dz = (float*)calloc(D_V, sizeof(float));
    da = (float*)calloc(T, sizeof(float));
    ds = (float*)calloc(T, sizeof(float));
    dq = (float*)calloc(D_K, sizeof(float));
    dx = (float*)calloc((size_t)T * D, sizeof(float));

    /* output layer */
    for (i = 0; i < V; i++)
    {
        dl[i] = f.probs(0, i);
        if (i == target) dl[i] = dl[i] - 1.0f;
        dl[i] = dl[i] * loss_weight;
        grad.bias(0, i) = grad.bias(0, i) + dl[i];
    }
    for (c = 0; c < D_V; c++)
    {
        for (i = 0; i < V; i++)
        {
            grad.W_out(c, i) = grad.W_out(c, i) + f.z(0, c) * dl[i];
            dz[c] = dz[c] + p.W_out(c, i) * dl[i];
        }
    }

    /* mix of values and softmax */
    sum = 0.0f;
    for (j = 0; j < T; j++)
    {
        for (c = 0; c < D_V; c++) da[j] = da[j] + f.V(j, c) * dz[c];
        sum = sum + f.weights(0, j) * da[j];
    }
    for (j = 0; j < T; j++) ds[j] = f.weights(0, j) * (da[j] - sum) * s2;

    /* values: dv_j = a_j dz */
    for (r = 0; r < D; r++)
        for (c = 0; c < D_V; c++)
            for (j = 0; j < T; j++)
            {
                grad.W_V(r, c) = grad.W_V(r, c) + f.X(j, r) * f.weights(0, j) * dz[c];
                dx[j * D + r] = dx[j * D + r] + f.weights(0, j) * dz[c] * p.W_V(r, c);
            }

    /* keys: dk_j = ds_j q ; query: dq = sum ds_j k_j */
    for (c = 0; c < D_K; c++)
        for (j = 0; j < T; j++)
        {
            dq[c] = dq[c] + ds[j] * f.K(j, c);
            for (r = 0; r < D; r++)
            {
                grad.W_K(r, c) = grad.W_K(r, c) + f.X(j, r) * ds[j] * f.q(0, c);
                dx[j * D + r] = dx[j * D + r] + ds[j] * f.q(0, c) * p.W_K(r, c);
            }
        }
    for (r = 0; r < D; r++)
        for (c = 0; c < D_K; c++)
        {
            grad.W_Q(r, c) = grad.W_Q(r, c) + f.X(T - 1, r) * dq[c];
            dx[(T - 1) * D + r] = dx[(T - 1) * D + r] + dq[c] * p.W_Q(r, c);
        }

    /* scatter into the embedding table */
    for (j = 0; j < T; j++)
        for (r = 0; r < D; r++)
            grad.embeddings(tokens[j], r) = grad.embeddings(tokens[j], r) + dx[j * D + r];

    free(dl); free(dz); free(da); free(ds); free(dq); free(dx);
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
