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

/* helpers: flat access into the Matrix storage */
#define EL(m, i, j) ((m).data[(i) * (m).cols + (j)])

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    int T, V, i, j, c, r, last;
    float sc, acc, s;
    float dz[D_V], dq[D_K], qs[D_K];
    float da[64], dsc[64];
    float *dx;

    T = (int)tokens.size();
    V = p.bias.cols;
    last = T - 1;
    sc = 1.0f / sqrtf((float)D_K);
    dx = new float[(size_t)T * D]();

    /* output layer; dlogit_i = lw (p_i - 1{i = target}) */
    for (c = 0; c < D_V; c++) dz[c] = 0.0f;
    for (i = 0; i < V; i++) {
        float g = EL(f.probs, 0, i);
        if (i == target) g -= 1.0f;
        g *= loss_weight;
        EL(grad.bias, 0, i) += g;
        for (c = 0; c < D_V; c++) {
            EL(grad.W_out, c, i) += EL(f.z, 0, c) * g;
            dz[c] += g * EL(p.W_out, c, i);
        }
    }

    /* attention mix and softmax */
    std::vector<float> da_big, dsc_big;
    float *pa = da, *ps = dsc;
    if (T > 64) {
        da_big.resize(T);
        dsc_big.resize(T);
        pa = da_big.data();
        ps = dsc_big.data();
    }
    s = 0.0f;
    for (j = 0; j < T; j++) {
        acc = 0.0f;
        for (c = 0; c < D_V; c++) acc += dz[c] * EL(f.V, j, c);
        pa[j] = acc;
        s += EL(f.weights, 0, j) * acc;
    }
    for (j = 0; j < T; j++) ps[j] = EL(f.weights, 0, j) * (pa[j] - s);

    /* scores: q.k/sqrt(dk) */
    for (c = 0; c < D_K; c++) {
        dq[c] = 0.0f;
        qs[c] = EL(f.q, 0, c) * sc;
    }
    for (j = 0; j < T; j++)
        for (c = 0; c < D_K; c++) dq[c] += ps[j] * sc * EL(f.K, j, c);

    /* keys and values back to W_K, W_V and the inputs */
    for (j = 0; j < T; j++) {
        float aj = EL(f.weights, 0, j);
        for (r = 0; r < D; r++) {
            float xr = EL(f.X, j, r);
            for (c = 0; c < D_K; c++) {
                float dk = ps[j] * qs[c];
                EL(grad.W_K, r, c) += xr * dk;
                dx[j * D + r] += dk * EL(p.W_K, r, c);
            }
            for (c = 0; c < D_V; c++) {
                float dv = aj * dz[c];
                EL(grad.W_V, r, c) += xr * dv;
                dx[j * D + r] += dv * EL(p.W_V, r, c);
            }
        }
    }

    /* query */
    for (r = 0; r < D; r++)
        for (c = 0; c < D_K; c++) {
            EL(grad.W_Q, r, c) += EL(f.X, last, r) * dq[c];
            dx[last * D + r] += dq[c] * EL(p.W_Q, r, c);
        }

    /* embeddings */
    for (j = 0; j < T; j++)
        for (r = 0; r < D; r++) EL(grad.embeddings, tokens[j], r) += dx[j * D + r];
    delete[] dx;
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
