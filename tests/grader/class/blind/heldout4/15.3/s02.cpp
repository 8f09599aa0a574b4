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
#include <array>

// Gradient of loss_weight * -log p(target), in double until it is added into grad.
void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
              Params& grad)
{
    using VecK = std::array<double, D_K>;
    using VecV = std::array<double, D_V>;
    const size_t T = tokens.size();
    const size_t vocab = size_t(p.bias.cols);
    const double root = std::sqrt(double(D_K));

    std::vector<double> g_logit(vocab);
    for (size_t i = 0; i < vocab; ++i)
        g_logit[i] = (double(f.probs(0, int(i))) - (int(i) == target ? 1.0 : 0.0)) * loss_weight;

    VecV g_z{};
    for (size_t i = 0; i < vocab; ++i)
    {
        grad.bias(0, int(i)) += float(g_logit[i]);
        for (int r = 0; r < D_V; ++r)
        {
            grad.W_out(r, int(i)) += float(f.z(0, r) * g_logit[i]);
            g_z[size_t(r)] += g_logit[i] * p.W_out(r, int(i));
        }
    }

    std::vector<double> g_w(T), g_s(T);
    for (size_t j = 0; j < T; ++j)
    {
        double s = 0.0;
        for (int c = 0; c < D_V; ++c) s += g_z[size_t(c)] * f.V(int(j), c);
        g_w[j] = s;
    }
    double mean = 0.0;
    for (size_t j = 0; j < T; ++j) mean += f.weights(0, int(j)) * g_w[j];
    for (size_t j = 0; j < T; ++j) g_s[j] = f.weights(0, int(j)) * (g_w[j] - mean) / root;

    VecK g_q{};
    for (size_t j = 0; j < T; ++j)
    {
        const int tok = tokens[j];
        VecK g_k;
        VecV g_v;
        for (int c = 0; c < D_K; ++c)
        {
            g_q[size_t(c)] += g_s[j] * f.K(int(j), c);
            g_k[size_t(c)] = g_s[j] * f.q(0, c);
        }
        for (int c = 0; c < D_V; ++c) g_v[size_t(c)] = f.weights(0, int(j)) * g_z[size_t(c)];
        for (int r = 0; r < D; ++r)
        {
            const double x = f.X(int(j), r);
            double to_x = 0.0;
            for (int c = 0; c < D_K; ++c)
            {
                grad.W_K(r, c) += float(x * g_k[size_t(c)]);
                to_x += g_k[size_t(c)] * p.W_K(r, c);
            }
            for (int c = 0; c < D_V; ++c)
            {
                grad.W_V(r, c) += float(x * g_v[size_t(c)]);
                to_x += g_v[size_t(c)] * p.W_V(r, c);
            }
            grad.embeddings(tok, r) += float(to_x);
        }
    }

    const int last = int(T) - 1;
    for (int r = 0; r < D; ++r)
    {
        double to_x = 0.0;
        for (int c = 0; c < D_K; ++c)
        {
            grad.W_Q(r, c) += float(f.X(last, r) * g_q[size_t(c)]);
            to_x += g_q[size_t(c)] * p.W_Q(r, c);
        }
        grad.embeddings(tokens[size_t(last)], r) += float(to_x);
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
