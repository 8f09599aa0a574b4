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
    auto n = tokens.size();
    auto nVocab = size_t(p.W_out.cols);
    double scale = 1.0 / std::sqrt(double(D_K));

    // gradient of the loss w.r.t. the logits (double)
    std::vector<double> gLog(nVocab);
    for (size_t k = 0; k < nVocab; ++k)
    {
        double hot = (int(k) == target) ? 1.0 : 0.0;
        gLog[k] = (double(f.probs.data[k]) - hot) * loss_weight;
        grad.bias.data[k] += float(gLog[k]);
    }

    // W_out, and the context gradient with it
    std::vector<double> gCtx(D_V, 0.0);
    for (size_t a = 0; a < size_t(D_V); ++a)
    {
        for (size_t k = 0; k < nVocab; ++k)
        {
            grad.W_out.data[a * nVocab + k] += float(f.z.data[a] * gLog[k]);
            gCtx[a] += gLog[k] * p.W_out.data[a * nVocab + k];
        }
    }

    // weights, then scores
    std::vector<double> gSc(n);
    double wsum = 0.0;
    for (size_t s = 0; s < n; ++s)
    {
        double acc = 0.0;
        for (size_t b = 0; b < size_t(D_V); ++b)
            acc += gCtx[b] * f.V.data[s * D_V + b];
        gSc[s] = acc;
        wsum += f.weights.data[s] * acc;
    }
    for (auto s = 0u; s < n; ++s)
        gSc[s] = f.weights.data[s] * (gSc[s] - wsum) * scale;

    // each position: its key, its value, its embedding row
    std::vector<double> gQ(D_K, 0.0);
    size_t lastPos = n - 1;
    for (size_t s = 0; s < n; ++s)
    {
        int id = tokens[s];
        double w = f.weights.data[s];
        for (size_t b = 0; b < size_t(D_K); ++b)
            gQ[b] += gSc[s] * f.K.data[s * D_K + b];
        for (size_t a = 0; a < size_t(D); ++a)
        {
            double xa = f.X.data[s * D + a];
            double acc = 0.0;
            for (size_t b = 0; b < size_t(D_K); ++b)
            {
                double gk = gSc[s] * f.q.data[b];
                grad.W_K.data[a * D_K + b] += float(xa * gk);
                acc += gk * p.W_K.data[a * D_K + b];
            }
            for (size_t b = 0; b < size_t(D_V); ++b)
            {
                double gv = w * gCtx[b];
                grad.W_V.data[a * D_V + b] += float(xa * gv);
                acc += gv * p.W_V.data[a * D_V + b];
            }
            grad.embeddings.data[size_t(id) * D + a] += float(acc);
        }
    }

    // the query, at the last position
    for (size_t a = 0; a < size_t(D); ++a)
    {
        double acc = 0.0;
        for (size_t b = 0; b < size_t(D_K); ++b)
        {
            grad.W_Q.data[a * D_K + b] += float(f.X.data[lastPos * D + a] * gQ[b]);
            acc += gQ[b] * p.W_Q.data[a * D_K + b];
        }
        grad.embeddings.data[size_t(tokens[lastPos]) * D + a] += float(acc);
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
