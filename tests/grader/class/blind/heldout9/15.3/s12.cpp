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
typedef const float* cptr;
typedef std::vector<float> fvec;
#define IDX(r, c, w) ((r) * (w) + (c))

static bool debug_grad = false;  // set true to print d logits

// keys and values of every position, into W_K, W_V and the embedding rows
static void key_value_part(const Params& P, const Forward& fw, const std::vector<int>& tok, const fvec& dsc,
                           const fvec& dctx, Params& G) {
    cptr xs_all = fw.X.data.data();
    for (int pos = 0; pos < (int)tok.size(); pos++) {
        cptr xs = xs_all + pos * D;
        float* er = G.embeddings.data.data() + tok[pos] * D;
        for (int e = 0; e < D; e++) {
            for (int c = 0; c < D_K; c++) {
                float dk = dsc[pos] * fw.q.data[c];
                er[e] += dk * P.W_K.data[IDX(e, c, D_K)];
                G.W_K.data[IDX(e, c, D_K)] += xs[e] * dk;
            }
            for (int c = 0; c < D_V; c++) {
                float dv = fw.weights.data[pos] * dctx[c];
                er[e] += dv * P.W_V.data[IDX(e, c, D_V)];
                G.W_V.data[IDX(e, c, D_V)] += xs[e] * dv;
            }
        }
    }
}

// the query's path: W_Q and the last row
static void query_part(const Params& P, const Forward& fw, const std::vector<int>& tok, const fvec& dqv, Params& G) {
    const int last = (int)tok.size() - 1;
    cptr xl = fw.X.data.data() + last * D;
    int e = 0;
    while (e < D) {
        for (int c = 0; c < D_K; c++) {
            G.W_Q.data[IDX(e, c, D_K)] += xl[e] * dqv[c];
            G.embeddings.data[IDX(tok[last], e, D)] += dqv[c] * P.W_Q.data[IDX(e, c, D_K)];
        }
        e++;
    }
}

void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
              float loss_weight, Params& grad) {
    int len = tokens.size();
    int nv = f.logits.cols;
    cptr a = f.weights.data.data();
    fvec dl(nv), dctx(D_V, 0.f), dwt(len, 0.f), dsc(len), dqv(D_K, 0.f);

    for (int i = 0; i < nv; i++) {
        dl[i] = loss_weight * (f.probs.data[i] - (i == target ? 1.f : 0.f));
        grad.bias.data[i] += dl[i];
    }
    if (debug_grad)
        for (int i = 0; i < nv; i++) std::fprintf(stderr, "%g ", dl[i]);
    int r = 0;
    while (r < D_V) {
        for (int i = 0; i < nv; i++) {
            dctx[r] += p.W_out.data[IDX(r, i, nv)] * dl[i];
            grad.W_out.data[IDX(r, i, nv)] += f.z.data[r] * dl[i];
        }
        r++;
    }

    float weighted = 0.f;
    for (int s = 0; s < len; s++) {
        for (int c = 0; c < D_V; c++) dwt[s] += dctx[c] * f.V.data[IDX(s, c, D_V)];
        weighted += a[s] * dwt[s];
    }
    const float scl = 1.f / std::sqrt((float)D_K);
    for (int s = 0; s < len; s++) {
        dsc[s] = a[s] * (dwt[s] - weighted) * scl;
        for (int c = 0; c < D_K; c++) dqv[c] += dsc[s] * f.K.data[IDX(s, c, D_K)];
    }

    key_value_part(p, f, tokens, dsc, dctx, grad);
    query_part(p, f, tokens, dqv, grad);
}
#undef IDX

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
