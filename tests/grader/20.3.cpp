// tests/grader/20.3.cpp: the tests of exercise 20.3 (chapter20/exercises/ex3_Cross_Attention.cpp).
// The student writes cross_attention(decoder, encoder, W_Q, W_K, W_V).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(cross_attention)
GRADER_FIELDS(Attention, Q, K, V, weights, out)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
#include <algorithm>

namespace tests {
using grader::Test;

constexpr int CASES = 5;  // random sequences per hidden test

// The lesson's sentences: listing 109's four words and "today" as the
// encoder, three made-up decoder positions (ex3_Cross_Attention.cpp's main).
static Matrix book_encoder() {
    Matrix X = sentence_109();
    X.data.insert(X.data.end(), {0.1f, -0.4f, 0.3f, 0.2f});
    X.rows++;
    return X;  // (5 x DM)
}
static Matrix book_decoder() {
    return Matrix(3, DM, {0.9f, 0.1f, 0.4f, -0.1f, 0.2f, 0.7f, 0.0f, 0.5f, -0.1f, 0.2f, 0.8f, 0.4f});
}

// One random cross-attention problem: sizes and entries drawn from the seed.
struct Problem {
    Matrix decoder, encoder, W_Q, W_K, W_V;
};
static Problem random_problem(Test& t) {
    int n_dec = t.size(1, 6), n_enc = t.size(1, 8), d_model = t.size(1, 6), d_k = t.size(1, 5), d_v = t.size(1, 5);
    return {t.matrix(n_dec, d_model), t.matrix(n_enc, d_model), t.matrix(d_k, d_model), t.matrix(d_k, d_model),
            t.matrix(d_v, d_model)};
}
static Problem book_problem() { return {book_decoder(), book_encoder(), WQ_109(), WK_109(), WV_109()}; }
static Attention solve(const Problem& p) { return cross_attention(p.decoder, p.encoder, p.W_Q, p.W_K, p.W_V); }

// ---------------------------------------------------------------------------
// Against the reference, as numbers.

static void book_input(Test& t) {
    Attention a = solve(book_problem());
    t.numbers("weights", a.weights);
    t.numbers("out", a.out);
}

static void report(Test& t, const std::string& name, const Attention& a) {
    t.numbers(name + ".Q", a.Q);
    t.numbers(name + ".K", a.K);
    t.numbers(name + ".V", a.V);
    t.numbers(name + ".weights", a.weights);
    t.numbers(name + ".out", a.out);
}

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES; c++) report(t, "case" + std::to_string(c), solve(random_problem(t)));
}

// A random problem whose largest score is exactly LARGEST_SCORE (W_Q rescaled
// to make it so): exp of a raw score overflows float past ~88 and double past
// ~709, so only a softmax that subtracts the row's largest score first gives
// weights. The weights are then nearly one-hot, and float rounding of scores
// in the hundreds moves them by ~1e-4: hence the looser tolerance.
constexpr int LARGE_CASES = 3;
constexpr double LARGEST_SCORE = 1000.0;
static Problem large_problem(Test& t) {
    Problem p = random_problem(t);
    Matrix S = matmul(matmul(p.decoder, transpose(p.W_Q)), transpose(matmul(p.encoder, transpose(p.W_K))));
    double top = 0, bottom = 0;
    for (float x : S.data) top = std::max(top, double(x)), bottom = std::min(bottom, double(x));
    double factor = top >= -bottom ? LARGEST_SCORE / std::max(top, 1e-3) : -LARGEST_SCORE / std::min(bottom, -1e-3);
    for (float& w : p.W_Q.data) w = float(w * factor);
    return p;
}

static void large_scores(Test& t) {
    for (int c = 1; c <= LARGE_CASES; c++) report(t, "large" + std::to_string(c), solve(large_problem(t)));
    // The same worst case at every seed: a row of scores all below -104 (exp
    // gives 0 unless the row's largest is subtracted, a largest started at 0 is
    // not) and a row with a tie for its largest score, 120, past exp's 88.
    const Matrix I(2, 2, {1, 0, 0, 1});
    report(t, "fixed", solve({Matrix(2, 2, {-12, 0, 10, 0}), Matrix(3, 2, {12, 1, 12, 1, 11, 2}), I, I, I}));
}

// ---------------------------------------------------------------------------
// Properties the section states, on the student's own answers.

// Q, K and V are the projections of the inputs, row i of the weights is the
// softmax of the student's own Q K^T row i, and out is the student's own
// weights times its own V: all computed here in double. Uniform weights, a
// softmax down the columns, or zeros for Q, K and V (whose softmax is
// uniform and whose blend is zero) fail.
constexpr double CONSISTENCY = 1e-4;  // relative, with an absolute floor of 1e-2 of a weight or an output's size

// got is X W^T (X one row per position, W one row per output component).
static void expect_projection(Test& t, const Matrix& got, const Matrix& X, const Matrix& W, const char* name) {
    std::vector<double> want(size_t(X.rows) * size_t(W.rows));
    double size = 0;
    for (int i = 0; i < X.rows; i++)
        for (int k = 0; k < W.rows; k++) {
            double& w = want[size_t(i) * size_t(W.rows) + size_t(k)];
            for (int m = 0; m < X.cols; m++) w += double(X(i, m)) * double(W(k, m));
            size = std::max(size, std::fabs(w));
        }
    for (int i = 0; i < X.rows; i++)
        for (int k = 0; k < W.rows; k++) {
            double w = want[size_t(i) * size_t(W.rows) + size_t(k)];
            t.expect(std::fabs(got(i, k) - w) <= CONSISTENCY * std::max(std::fabs(w), 1e-2 * size) + 1e-30,
                     "%s(%d, %d) = %g, but the projection gives %g", name, i, k, double(got(i, k)), w);
        }
}
static void own_softmax_and_blend(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Problem p = c == 0 ? book_problem() : random_problem(t);
        Attention a = solve(p);
        int n_dec = p.decoder.rows, n_enc = p.encoder.rows, d_k = p.W_Q.rows, d_v = p.W_V.rows;
        char what[96];
        std::snprintf(what, sizeof what, "for %d decoder positions over %d encoder positions, weights", n_dec, n_enc);
        t.expect_shape(a.Q, n_dec, d_k, "Q");
        t.expect_shape(a.K, n_enc, d_k, "K");
        t.expect_shape(a.V, n_enc, d_v, "V");
        t.expect_shape(a.weights, n_dec, n_enc, what);
        t.expect_shape(a.out, n_dec, d_v, "out");
        expect_projection(t, a.Q, p.decoder, p.W_Q, "Q");
        expect_projection(t, a.K, p.encoder, p.W_K, "K");
        expect_projection(t, a.V, p.encoder, p.W_V, "V");
        for (int i = 0; i < n_dec; i++) {
            std::vector<double> want(static_cast<size_t>(n_enc));
            double biggest = -1e300, total = 0;
            for (int j = 0; j < n_enc; j++) {
                for (int k = 0; k < d_k; k++) want[size_t(j)] += double(a.Q(i, k)) * double(a.K(j, k));
                biggest = std::max(biggest, want[size_t(j)]);
            }
            for (double& w : want) total += (w = std::exp(w - biggest));
            for (int j = 0; j < n_enc; j++) {
                double w = want[size_t(j)] / total;
                t.expect(std::fabs(a.weights(i, j) - w) <= CONSISTENCY * std::max(w, 1e-2),
                         "weights(%d, %d) = %g, but the softmax of your own row %d of Q K^T gives %g there", i, j,
                         double(a.weights(i, j)), i, w);
            }
            for (int k = 0; k < d_v; k++) {
                double blend = 0, size = 0;
                for (int j = 0; j < n_enc; j++) {
                    blend += double(a.weights(i, j)) * double(a.V(j, k));
                    size = std::max(size, std::fabs(double(a.V(j, k))));
                }
                t.expect(
                    std::fabs(a.out(i, k) - blend) <= CONSISTENCY * std::max(std::fabs(blend), 1e-2 * size) + 1e-30,
                    "out(%d, %d) = %g, but your own weights times your own V give %g", i, k, double(a.out(i, k)),
                    blend);
            }
        }
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare(
                "book_input", 1, 1e-4, book_input,
                "the lesson's sentences: check which sequence gives the queries and which the keys and values"),
            grader::compare(
                "hidden_inputs", 4, 1e-4, hidden_inputs,
                "random sizes: every size must come from the arguments; Q from the decoder, K and V from the "
                "encoder; no 1/sqrt(d_k), as in listing 109"),
            grader::compare("large_scores", 2, 1e-3, large_scores,
                            "scores up to 1000: the softmax must subtract each row's largest score before exp "
                            "(softmax_rows does)"),
            grader::property("own_softmax_and_blend", 2, own_softmax_and_blend,
                             "Q from the decoder, K and V from the encoder; each row of weights is the softmax of your "
                             "Q K^T's row, one query at a time (softmax_rows), and out is weights times V"),
            grader::printed_output(
                1, "run your program and compare its lines with the lesson's; main should call cross_attention"),
        });
}
#endif
