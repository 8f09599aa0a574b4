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

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad)
{
    auto& embG = grad.embeddings;
    auto& qG = grad.W_Q;
    auto& kG = grad.W_K;
    auto& vG = grad.W_V;
    const int len = int(tokens.size());
    const float half = 0.5f; // 1 / sqrt(4)

    float gz[D_V] = {0};
    int o = 0;
    for (float prob : f.probs.data)
    {
        const float d = loss_weight * (o == target ? prob - 1.0f : prob);
        grad.bias.data[o] += d;
        for (int m = 0; m < D_V; m++)
        {
            grad.W_out(m, o) += d * f.z.data[m];
            gz[m] += d * p.W_out(m, o);
        }
        ++o;
    }

    std::vector<float> gs(len);
    float avg = 0;
    for (int s = 0; s < len; s++)
    {
        gs[s] = dot(gz, f.V.row(s), D_V);
        avg += gs[s] * f.weights.data[s];
    }
    for (int s = 0; s < len; s++)
        gs[s] = (gs[s] - avg) * f.weights.data[s] * half;

    float gq[D_K] = {0};
    for (int s = 0; s < len; s++)
    {
        const float w = f.weights.data[s];
        float* row = embG.row(tokens[s]);
        const float* xs = f.X.row(s);
        for (int m = 0; m < D_K; m++)
            gq[m] += gs[s] * f.K(s, m);
        for (int k = 0; k < D; k++)
        {
            float b = 0;
            for (int m = 0; m < D_K; m++)
            {
                kG(k, m) += xs[k] * gs[s] * f.q.data[m];
                b += gs[s] * f.q.data[m] * p.W_K(k, m);
            }
            for (int m = 0; m < D_V; m++)
            {
                vG(k, m) += xs[k] * w * gz[m];
                b += w * gz[m] * p.W_V(k, m);
            }
            row[k] += b;
        }
    }

    float* row = embG.row(tokens[len - 1]);
    for (int k = 0; k < D; k++)
        for (int m = 0; m < D_K; m++)
        {
            qG(k, m) += f.X(len - 1, k) * gq[m];
            row[k] += gq[m] * p.W_Q(k, m);
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
