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

// backward pass, written step by step from the chain rule.
// Every intermediate gradient gets its own vector so I can print them while debugging.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int num_positions = static_cast<int>(tokens.size());
    const int vocab_size = p.W_out.cols;
    const float inv_sqrt_dk = 1.0f / std::sqrt(static_cast<float>(D_K));

    // 1. cross entropy + softmax: dL/dlogit_i = w * (p_i - [i == target])
    std::vector<float> grad_logits(vocab_size);
    for (int i = 0; i < vocab_size; ++i) {
        float indicator = (i == target) ? 1.0f : 0.0f;
        grad_logits[i] = loss_weight * (f.probs(0, i) - indicator);
    }

    // 2. logits = z W_out + bias
    std::vector<float> grad_context(D_V, 0.0f);
    for (int r = 0; r < D_V; ++r) {
        for (int i = 0; i < vocab_size; ++i) {
            grad.W_out(r, i) += f.z(0, r) * grad_logits[i];
            grad_context[r] += p.W_out(r, i) * grad_logits[i];
        }
    }
    for (int i = 0; i < vocab_size; ++i) grad.bias(0, i) += grad_logits[i];

    // 3. z = sum_j a_j v_j
    std::vector<float> grad_attention(num_positions, 0.0f);
    std::vector<std::vector<float>> grad_values(num_positions, std::vector<float>(D_V, 0.0f));
    for (int j = 0; j < num_positions; ++j) {
        for (int r = 0; r < D_V; ++r) {
            grad_attention[j] += grad_context[r] * f.V(j, r);
            grad_values[j][r] = f.weights(0, j) * grad_context[r];
        }
    }

    // 4. softmax over the scores
    float weighted_sum = 0.0f;
    for (int j = 0; j < num_positions; ++j) weighted_sum += f.weights(0, j) * grad_attention[j];
    std::vector<float> grad_scores(num_positions);
    for (int j = 0; j < num_positions; ++j)
        grad_scores[j] = f.weights(0, j) * (grad_attention[j] - weighted_sum);

    // 5. score_j = (q . k_j) / sqrt(d_k)
    std::vector<float> grad_query(D_K, 0.0f);
    std::vector<std::vector<float>> grad_keys(num_positions, std::vector<float>(D_K, 0.0f));
    for (int j = 0; j < num_positions; ++j) {
        for (int c = 0; c < D_K; ++c) {
            grad_query[c] += grad_scores[j] * inv_sqrt_dk * f.K(j, c);
            grad_keys[j][c] = grad_scores[j] * inv_sqrt_dk * f.q(0, c);
        }
    }

    // 6. projections: q = x_last W_Q, k_j = x_j W_K, v_j = x_j W_V
    std::vector<std::vector<float>> grad_inputs(num_positions, std::vector<float>(D, 0.0f));
    for (int j = 0; j < num_positions; ++j) {
        for (int r = 0; r < D; ++r) {
            for (int c = 0; c < D_K; ++c) {
                grad.W_K(r, c) += f.X(j, r) * grad_keys[j][c];
                grad_inputs[j][r] += grad_keys[j][c] * p.W_K(r, c);
            }
            for (int c = 0; c < D_V; ++c) {
                grad.W_V(r, c) += f.X(j, r) * grad_values[j][c];
                grad_inputs[j][r] += grad_values[j][c] * p.W_V(r, c);
            }
        }
    }
    const int last = num_positions - 1;
    for (int r = 0; r < D; ++r) {
        for (int c = 0; c < D_K; ++c) {
            grad.W_Q(r, c) += f.X(last, r) * grad_query[c];
            grad_inputs[last][r] += grad_query[c] * p.W_Q(r, c);
        }
    }

    // 7. embedding lookup: scatter each position's gradient into its token's row
    for (int j = 0; j < num_positions; ++j)
        for (int r = 0; r < D; ++r) grad.embeddings(tokens[j], r) += grad_inputs[j][r];
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
