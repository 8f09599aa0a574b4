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
// backward pass, step by step
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    int T = tokens.size();
    int nv = p.bias.cols;

    // step 1: logits
    std::vector<float> dlogits(nv);
    for (int v = 0; v < nv; v++) {
        dlogits[v] = f.probs(0, v) * loss_weight;
    }
    dlogits[target] -= loss_weight;
    for (int v = 0; v < nv; v++) {
        grad.bias(0, v) += dlogits[v];
    }
    for (int i = 0; i < D_V; i++) {
        for (int v = 0; v < nv; v++) {
            grad.W_out(i, v) += f.z(0, i) * dlogits[v];
        }
    }
    std::vector<float> dz(D_V, 0.0f);
    for (int i = 0; i < D_V; i++) {
        for (int v = 0; v < nv; v++) {
            dz[i] += dlogits[v] * p.W_out(i, v);
        }
    }

    // step 2: z = sum a_j v_j
    std::vector<float> da(T, 0.0f);
    for (int j = 0; j < T; j++) {
        for (int i = 0; i < D_V; i++) {
            da[j] += dz[i] * f.V(j, i);
        }
    }

    // step 3: softmax
    float dot_ada = 0.0f;
    for (int j = 0; j < T; j++) {
        dot_ada += f.weights(0, j) * da[j];
    }
    std::vector<float> ds(T);
    for (int j = 0; j < T; j++) {
        ds[j] = f.weights(0, j) * (da[j] - dot_ada);
    }

    // step 4: scores s_j = q . k_j
    std::vector<float> dq(D_K, 0.0f);
    Matrix dK(T, D_K);
    for (int j = 0; j < T; j++) {
        for (int c = 0; c < D_K; c++) {
            dq[c] += ds[j] * f.K(j, c);
            dK(j, c) = ds[j] * f.q(0, c);
        }
    }
    Matrix dV(T, D_V);
    for (int j = 0; j < T; j++) {
        for (int i = 0; i < D_V; i++) {
            dV(j, i) = f.weights(0, j) * dz[i];
        }
    }

    // step 5: projections
    Matrix dX(T, D);
    for (int j = 0; j < T; j++) {
        for (int e = 0; e < D; e++) {
            for (int c = 0; c < D_K; c++) {
                grad.W_K(e, c) += f.X(j, e) * dK(j, c);
                dX(j, e) += dK(j, c) * p.W_K(e, c);
            }
            for (int i = 0; i < D_V; i++) {
                grad.W_V(e, i) += f.X(j, e) * dV(j, i);
                dX(j, e) += dV(j, i) * p.W_V(e, i);
            }
        }
    }
    for (int e = 0; e < D; e++) {
        for (int c = 0; c < D_K; c++) {
            grad.W_Q(e, c) += f.X(T - 1, e) * dq[c];
            dX(T - 1, e) += dq[c] * p.W_Q(e, c);
        }
    }

    // step 6: embeddings
    for (int j = 0; j < T; j++) {
        for (int e = 0; e < D; e++) {
            grad.embeddings(tokens[j], e) += dX(j, e);
        }
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
