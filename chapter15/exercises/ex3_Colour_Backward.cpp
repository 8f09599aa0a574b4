// ex3_Colour_Backward.cpp: exercise 15.3, the colour-recall model's backward pass.
// Book section: 15.2.3 (exercise 15.3)
// Exercise: 15.3
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void colour_backward(const Params& p, const std::vector<int>& tokens, const Forward& f,
//                        int target, float loss_weight, Params& grad);
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
#include <cstdio>
#include <vector>

#include "../colour_recall.hpp"
#include "maths.hpp"  // square_root, absolute, max_number

void colour_backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
                     float loss_weight, Params& grad) {
    // BEGIN SOLUTION
    // STUB: (void)p, (void)tokens, (void)f, (void)target, (void)loss_weight, (void)grad;
    const int T = int(tokens.size()), vocab = p.bias.cols;
    const float score_scale = 1.0f / square_root(float(D_K));

    // logits = z W_out + bias, loss = -log softmax(logits)[target]
    std::vector<float> d_logits(size_t(vocab), 0.0f);
    for (int i = 0; i < vocab; i++) d_logits[i] = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    std::vector<float> d_z(D_V, 0.0f);
    for (int i = 0; i < vocab; i++) {
        grad.bias(0, i) += d_logits[i];
        for (int r = 0; r < D_V; r++) {
            grad.W_out(r, i) += f.z(0, r) * d_logits[i];
            d_z[r] += p.W_out(r, i) * d_logits[i];
        }
    }
    // z = sum_j a_j v_j
    std::vector<float> d_a(size_t(T), 0.0f);
    for (int j = 0; j < T; j++) d_a[j] = dot(d_z.data(), f.V.row(j), D_V);
    // a = softmax(s)
    const float through = dot(f.weights.row(0), d_a.data(), T);
    // s_j = q . k_j / sqrt(D_K); then k_j = x_j W_K, v_j = x_j W_V, each position on its own
    std::vector<float> d_q(D_K, 0.0f);
    for (int j = 0; j < T; j++) {
        const float d_s = f.weights(0, j) * (d_a[j] - through);
        float d_k[D_K], d_v[D_V];
        for (int c = 0; c < D_K; c++) {
            d_q[c] += d_s * f.K(j, c) * score_scale;
            d_k[c] = d_s * f.q(0, c) * score_scale;
        }
        for (int c = 0; c < D_V; c++) d_v[c] = f.weights(0, j) * d_z[c];
        for (int r = 0; r < D; r++) {
            float d_x = 0.0f;
            for (int c = 0; c < D_K; c++) {
                grad.W_K(r, c) += f.X(j, r) * d_k[c];
                d_x += d_k[c] * p.W_K(r, c);
            }
            for (int c = 0; c < D_V; c++) {
                grad.W_V(r, c) += f.X(j, r) * d_v[c];
                d_x += d_v[c] * p.W_V(r, c);
            }
            grad.embeddings(tokens[j], r) += d_x;
        }
    }
    // q = x_last W_Q
    for (int r = 0; r < D; r++) {
        float d_x = 0.0f;
        for (int c = 0; c < D_K; c++) {
            grad.W_Q(r, c) += f.X(T - 1, r) * d_q[c];
            d_x += d_q[c] * p.W_Q(r, c);
        }
        grad.embeddings(tokens[T - 1], r) += d_x;
    }
    // END SOLUTION
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
        colour_backward(p, e.tokens, forward(p, e.tokens), e.target, 1.0f / float(examples.size()), grad);

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
            biggest = max_number(biggest, absolute(numeric[i]));
        }
        for (size_t i = 0; i < A.data.size(); i++) worst = max_number(worst, absolute(G.data[i] - numeric[i]));
        const bool ok = biggest > 0 && worst / biggest < TOLERANCE;
        matching += ok;
        std::printf("  %-10s  %18.3e  %32s  %s\n", BLOCK_NAMES[b], biggest,
                    worst / biggest < 0.01 ? "below 0.01" : ok ? "below 0.05" : "above 0.05", ok ? "yes" : "no");
    }
    std::printf("\n%d of 6 blocks match finite differences (step %g, tolerance %g of the block's largest entry)\n",
                matching, double(STEP), TOLERANCE);
    return 0;
}
