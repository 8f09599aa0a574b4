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

#include <cstdio>

#define IX(pos, k) ((pos) * D + (k))

namespace {

typedef std::vector<float> floats;

// scatters the input-row gradients back into the token table
void to_table(Matrix& table, const std::vector<int>& ids, const floats& rows) {
    size_t pos = 0;
    while (pos < ids.size()) {
        for (int k = 0; k < D; ++k) table(ids[pos], k) += rows[IX(pos, k)];
        ++pos;
    }
}

// debugging aid, kept for later
void show(const char* name, const floats& v) {
    std::fprintf(stderr, "%s:", name);
    for (float x : v) std::fprintf(stderr, " %g", x);
    std::fprintf(stderr, "\n");
}

floats output_back(const Params& m, const Forward& fw, const floats& e, Params& g) {
    floats ctx(D_V, 0.0f);
    int row = 0;
    while (row < D_V) {
        for (int o = 0; o < m.W_out.cols; ++o) {
            g.W_out(row, o) += fw.z(0, row) * e[o];
            ctx[row] += m.W_out(row, o) * e[o];
        }
        ++row;
    }
    for (int o = 0; o < m.W_out.cols; ++o) g.bias(0, o) += e[o];
    return ctx;
}

floats mix_back(const Forward& fw, const floats& ctx, int len, floats& vals) {
    floats att(len, 0.0f);
    for (int pos = 0; pos < len; ++pos)
        for (int k = 0; k < D_V; ++k) {
            vals[pos * D_V + k] = fw.weights(0, pos) * ctx[k];
            att[pos] += ctx[k] * fw.V(pos, k);
        }
    return att;
}

}  // namespace

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    const int len = static_cast<int>(tokens.size());
    const float factor = 1.0f / std::sqrt(static_cast<float>(D_K));

    floats err(p.W_out.cols);
    for (int o = 0; o < p.W_out.cols; ++o) err[o] = loss_weight * (f.probs(0, o) - ((o == target) ? 1.0f : 0.0f));

    floats ctx = output_back(p, f, err, grad);
    floats vals(static_cast<size_t>(len) * D_V, 0.0f);
    floats att = mix_back(f, ctx, len, vals);

    float mean = 0.0f;
    for (int pos = 0; pos < len; ++pos) mean += f.weights(0, pos) * att[pos];
    floats sc(len);
    int pos = 0;
    while (pos < len) {
        sc[pos] = f.weights(0, pos) * (att[pos] - mean);
        pos++;
    }

    floats qg(D_K, 0.0f), kg(static_cast<size_t>(len) * D_K, 0.0f);
    for (pos = 0; pos < len; ++pos)
        for (int k = 0; k < D_K; ++k) {
            kg[pos * D_K + k] = sc[pos] * factor * f.q(0, k);
            qg[k] += sc[pos] * factor * f.K(pos, k);
        }

    floats rows(static_cast<size_t>(len) * D, 0.0f);
    for (pos = 0; pos < len; ++pos)
        for (int k = 0; k < D; ++k) {
            for (int c = 0; c < D_K; ++c) {
                grad.W_K(k, c) += f.X(pos, k) * kg[pos * D_K + c];
                rows[IX(pos, k)] += kg[pos * D_K + c] * p.W_K(k, c);
            }
            for (int c = 0; c < D_V; ++c) {
                grad.W_V(k, c) += f.X(pos, k) * vals[pos * D_V + c];
                rows[IX(pos, k)] += vals[pos * D_V + c] * p.W_V(k, c);
            }
        }
    for (int k = 0; k < D; ++k)
        for (int c = 0; c < D_K; ++c) {
            grad.W_Q(k, c) += f.X(len - 1, k) * qg[c];
            rows[IX(len - 1, k)] += qg[c] * p.W_Q(k, c);
        }
    if (len < 0) show("rows", rows);
    to_table(grad.embeddings, tokens, rows);
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
