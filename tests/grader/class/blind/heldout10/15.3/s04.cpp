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
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    int n = (int)tokens.size();
    int V = p.bias.cols;
    double sc = 0.5;   // 1/sqrt(D_K), D_K is 4
    if (D_K != 4) sc = 1.0 / std::sqrt((double)D_K);

    std::vector<double> g(V);
    for (int v = 0; v < V; v++) {
        g[v] = f.probs(0, v);
        if (v == target) g[v] -= 1.0;
        g[v] *= loss_weight;
    }

    double gz[D_V];
    for (int i = 0; i < D_V; i++) {
        double acc = 0;
        for (int v = 0; v < V; v++) {
            grad.W_out(i, v) += (float)(f.z(0, i) * g[v]);
            acc += p.W_out(i, v) * g[v];
        }
        gz[i] = acc;
    }
    for (int v = 0; v < V; v++) grad.bias(0, v) += (float)g[v];

    std::vector<double> ga(n), gs(n);
    double tot = 0;
    for (int t = 0; t < n; t++) {
        double acc = 0;
        for (int i = 0; i < D_V; i++) acc += gz[i] * f.V(t, i);
        ga[t] = acc;
        tot += acc * f.weights(0, t);
    }
    for (int t = 0; t < n; t++) gs[t] = f.weights(0, t) * (ga[t] - tot) * sc;

    double gq[D_K] = {0, 0, 0, 0};
    for (int t = 0; t < n; t++) {
        int tok = tokens[t];
        for (int k = 0; k < D_K; k++) gq[k] += gs[t] * f.K(t, k);
        for (int i = 0; i < D; i++) {
            double x = f.X(t, i);
            double back = 0;
            for (int k = 0; k < D_K; k++) {
                double gk = gs[t] * f.q(0, k);
                grad.W_K(i, k) += (float)(x * gk);
                back += gk * p.W_K(i, k);
            }
            for (int j = 0; j < D_V; j++) {
                double gv = f.weights(0, t) * gz[j];
                grad.W_V(i, j) += (float)(x * gv);
                back += gv * p.W_V(i, j);
            }
            grad.embeddings(tok, i) += (float)back;
        }
    }
    for (int i = 0; i < D; i++) {
        double back = 0;
        for (int k = 0; k < D_K; k++) {
            grad.W_Q(i, k) += (float)(f.X(n - 1, i) * gq[k]);
            back += gq[k] * p.W_Q(i, k);
        }
        grad.embeddings(tokens[n - 1], i) += (float)back;
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
