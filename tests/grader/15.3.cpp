// tests/grader/15.3.cpp: the tests of exercise 15.3 (chapter15/exercises/ex3_Colour_Backward.cpp),
// backward, block by block against central finite differences.
//
// The differences are taken of a loss computed here again in double (not
// colour_recall.hpp's float forward), with step 1e-5, so they are good to
// about 1e-9. The student's gradient is float, good to about 1e-6 relative.
// CS231n's notes put a relative error above 1e-2 as "probably wrong" and below
// 1e-4 as fine for most work; we accept 1e-3 of the block's size
// (||analytic - numeric|| / (||analytic|| + ||numeric||), or over 1% of the
// whole gradient's norm for a smaller block): a hundred times the float
// rounding, while a wrong sign gives 1 and a missing term, here, 0.05 or more.
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(backward)
GRADER_FIELDS(Params, embeddings, W_Q, W_K, W_V, W_out, bias)
GRADER_FIELDS(Forward, X, q, K, V, scores, weights, z, logits, probs)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr double H = 1e-5;
constexpr double THRESHOLD = 1e-3;
// A block whose gradient is under 1% of the whole gradient is measured on
// 1% of the whole instead: the float rounding it carries comes from terms the
// size of the whole (about 1e-7 of it), and beside a block a million times
// smaller that alone is a large relative error (seen: W_Q at 8e-6 beside 24).
constexpr double WHOLE_FRACTION = 1e-2;

// loss_weight * -log softmax(logits)[target], in double, for parameters held in double.
struct Model {
    std::vector<std::vector<double>> block;  // the six blocks, as Params::blocks() orders them
    int vocab;
    double at(int b, int r, int c, int cols) const { return block[b][size_t(r) * cols + c]; }
};

static double loss_in_double(const Model& m, const std::vector<int>& tokens, int target, double loss_weight) {
    const int T = int(tokens.size()), V = m.vocab;
    std::vector<std::vector<double>> X(T, std::vector<double>(D)), K(T, std::vector<double>(D_K)),
        Vv(T, std::vector<double>(D_V));
    for (int t = 0; t < T; t++)
        for (int c = 0; c < D; c++) X[t][c] = m.at(0, tokens[t], c, D);
    std::vector<double> q(D_K, 0.0);
    for (int c = 0; c < D_K; c++)
        for (int r = 0; r < D; r++) q[c] += X[T - 1][r] * m.at(1, r, c, D_K);
    for (int t = 0; t < T; t++) {
        for (int c = 0; c < D_K; c++) {
            K[t][c] = 0.0;
            for (int r = 0; r < D; r++) K[t][c] += X[t][r] * m.at(2, r, c, D_K);
        }
        for (int c = 0; c < D_V; c++) {
            Vv[t][c] = 0.0;
            for (int r = 0; r < D; r++) Vv[t][c] += X[t][r] * m.at(3, r, c, D_V);
        }
    }
    std::vector<double> a(T);
    double top = -1e300, total = 0.0;
    for (int t = 0; t < T; t++) {
        a[t] = 0.0;
        for (int c = 0; c < D_K; c++) a[t] += q[c] * K[t][c] / 2.0;  // sqrt(D_K) = 2
        top = std::fmax(top, a[t]);
    }
    for (double& x : a) total += (x = exp_d(x - top));
    std::vector<double> z(D_V, 0.0);
    for (int t = 0; t < T; t++)
        for (int c = 0; c < D_V; c++) z[c] += a[t] / total * Vv[t][c];
    std::vector<double> logits(V);
    double biggest = -1e300, sum = 0.0;
    for (int i = 0; i < V; i++) {
        logits[i] = m.at(5, 0, i, V);
        for (int r = 0; r < D_V; r++) logits[i] += z[r] * m.at(4, r, i, V);
        biggest = std::fmax(biggest, logits[i]);
    }
    for (double l : logits) sum += exp_d(l - biggest);
    return loss_weight * (log_d(sum) - (logits[target] - biggest));
}

struct Case {
    Params p;
    std::vector<int> tokens;
    int target;
    float loss_weight;
};

// A random model wide enough that the attention row is far from uniform, a
// random bias, and a random prefix of 2 to 16 tokens with a random target.
static Case random_case(Test& t) {
    Case c{random_start(uint64_t(t.size(1, 1000000)), VOCAB, t.uniform(0.4f, 1.0f)), {}, 0, t.uniform(0.5f, 2.0f)};
    for (float& b : c.p.bias.data) b = t.uniform(-0.5f, 0.5f);
    const int T = t.size(2, 16);
    for (int i = 0; i < T; i++) c.tokens.push_back(t.size(0, VOCAB - 1));
    c.target = t.size(0, VOCAB - 1);
    return c;
}

// The same case at every seed: a token repeated (equal keys, a tie in the
// attention row), the target one of the prefix's own tokens, a wide model.
static Case fixed_case() { return {random_start(2026, VOCAB, 1.0f), {2, 4, 4, 9, 4, 16, 0}, 4, 1.5f}; }

static void check_block(Test& t, int b) {
    for (int round = 0; round < 4; round++) {
        Case c = round < 3 ? random_case(t) : fixed_case();
        Params grad;
        backward(c.p, c.tokens, forward(c.p, c.tokens), c.target, c.loss_weight, grad);
        Model m{{}, VOCAB};
        for (const Matrix* A : c.p.blocks()) m.block.emplace_back(A->data.begin(), A->data.end());
        std::vector<double> analytic(grad.blocks()[b]->data.begin(), grad.blocks()[b]->data.end()), numeric;
        for (size_t i = 0; i < m.block[b].size(); i++) {
            const double kept = m.block[b][i];
            m.block[b][i] = kept + H;
            const double up = loss_in_double(m, c.tokens, c.target, c.loss_weight);
            m.block[b][i] = kept - H;
            const double down = loss_in_double(m, c.tokens, c.target, c.loss_weight);
            m.block[b][i] = kept;
            numeric.push_back((up - down) / (2 * H));
        }
        for (double g : analytic) t.expect(std::isfinite(g), "the %s gradient holds %g", BLOCK_NAMES[b], g);
        double whole = 0.0;  // the norm of the whole gradient, every block
        for (const Matrix* A : grad.blocks())
            for (float g : A->data) whole += double(g) * g;
        const double error = grader::rel_error_norm(analytic, numeric, WHOLE_FRACTION * std::sqrt(whole));
        t.expect(error < THRESHOLD,
                 "%s: relative error %.2e against finite differences (threshold %.0e), "
                 "for a prefix of %d tokens",
                 BLOCK_NAMES[b], error, THRESHOLD, int(c.tokens.size()));
    }
}

static void embeddings(Test& t) { check_block(t, 0); }
static void w_q(Test& t) { check_block(t, 1); }
static void w_k(Test& t) { check_block(t, 2); }
static void w_v(Test& t) { check_block(t, 3); }
static void w_out(Test& t) { check_block(t, 4); }
static void bias(Test& t) { check_block(t, 5); }

// What is already in grad stays: the new gradient is added to it.
static void adds_into_grad(Test& t) {
    Case c = random_case(t);
    const Forward f = forward(c.p, c.tokens);
    Params fresh, filled;
    backward(c.p, c.tokens, f, c.target, c.loss_weight, fresh);
    for (Matrix* A : filled.blocks())
        for (float& x : A->data) x = t.uniform(-1.0f, 1.0f);
    const Params before = filled;
    backward(c.p, c.tokens, f, c.target, c.loss_weight, filled);
    double moved = 0.0;
    for (int b = 0; b < 6; b++)
        for (size_t i = 0; i < before.blocks()[b]->data.size(); i++) {
            const double added = double(filled.blocks()[b]->data[i]) - before.blocks()[b]->data[i];
            const double want = fresh.blocks()[b]->data[i];
            moved += std::fabs(want);
            t.expect(std::fabs(added - want) <= 1e-5 * (1.0 + std::fabs(want)),
                     "%s entry %zu: grad held %g and "
                     "should have grown by %g, but it became %g",
                     BLOCK_NAMES[b], i, double(before.blocks()[b]->data[i]), want, double(filled.blocks()[b]->data[i]));
        }
    t.expect(moved > 0.0, "backward added nothing to grad");
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("bias", 1, bias,
                             "start from the gradient of -log softmax(logits)[target] with respect to the logits, "
                             "times loss_weight"),
            grader::property("W_out", 1, w_out,
                             "W_out is (D_V x vocab): which of z and d logits gives its rows, which its columns?"),
            grader::property("W_V", 2, w_v,
                             "each position's value was mixed in with its weight; W_V was used at every position"),
            grader::property("W_K", 2, w_k,
                             "through the softmax, every score's gradient depends on the whole row of "
                             "weights; and the scores were divided by sqrt(D_K)"),
            grader::property("W_Q", 2, w_q, "the query comes from the last position only, and every score used it"),
            grader::property("embeddings", 2, embeddings,
                             "every position's embedding row gets what its key and its "
                             "value send back, and the last position's also what the query sends back; a token that "
                             "occurs twice collects both"),
            grader::property("adds_into_grad", 1, adds_into_grad,
                             "add into grad (+=), never assign: the training loop "
                             "sums the prefixes' gradients in one grad"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
