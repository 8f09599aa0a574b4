// tests/grader/20.5.cpp: the tests of exercise 20.5 (chapter20/exercises/ex5_Backward_WQ.cpp).
// The student writes backward_W_Q(a, X, d_out).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(backward_W_Q)
GRADER_FIELDS(Attention, Q, K, V, weights, out)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr int CASES = 5;  // random problems per hidden test
// Central differences in double with this step have truncation error ~H^2 = 1e-10.
constexpr double FD_STEP = 1e-5;
// CS231n's notes: below 1e-7 is good in double, above 1e-2 is wrong. The
// student's gradient is float, whose rounding alone gives ~1e-6 here, so we
// accept up to 1e-4 for the whole gradient (rel_error_norm); a flipped sign
// gives 1, a missing softmax term 1e-1 or more. Gradients whose norm is below
// FD_FLOOR (a nearly saturated softmax) are compared absolutely to it.
constexpr double FD_TOLERANCE = 1e-4;
constexpr double FD_FLOOR = 1e-2;

// A random problem: a sequence, three projections and a gradient at the outputs.
struct Problem {
    Matrix X, W_Q, W_K, W_V, d_out;
};
static Problem random_problem(Test& t) {
    int n = t.size(2, 6), d_model = t.size(1, 5), d_k = t.size(1, 4), d_v = t.size(1, 4);
    return {t.matrix(n, d_model), t.matrix(d_k, d_model), t.matrix(d_k, d_model), t.matrix(d_v, d_model),
            t.matrix(n, d_v)};
}
// The lesson's: listing 109 with the loss sum_i out_i . c, so every row of d_out is c.
static Problem book_problem() {
    Matrix d_out(SL, DV);
    for (int i = 0; i < SL; i++)
        for (int k = 0; k < DV; k++) d_out(i, k) = C[k];
    return {sentence_109(), WQ_109(), WK_109(), WV_109(), d_out};
}
static Matrix solve(const Problem& p) { return backward_W_Q(self_attention(p.X, p.W_Q, p.W_K, p.W_V), p.X, p.d_out); }

// The loss sum(d_out * out) in double, written out here rather than taken from
// the student's file or the header: W_Q is the one being moved.
static double loss_in_double(const Problem& p, const std::vector<double>& W_Q) {
    int n = p.X.rows, d_model = p.X.cols, d_k = p.W_Q.rows, d_v = p.W_V.rows;
    std::vector<double> Q(size_t(n * d_k)), K(size_t(n * d_k)), V(size_t(n * d_v));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < d_k; k++)
            for (int m = 0; m < d_model; m++) {
                Q[size_t(i * d_k + k)] += W_Q[size_t(k * d_model + m)] * p.X(i, m);
                K[size_t(i * d_k + k)] += double(p.W_K(k, m)) * p.X(i, m);
            }
        for (int k = 0; k < d_v; k++)
            for (int m = 0; m < d_model; m++) V[size_t(i * d_v + k)] += double(p.W_V(k, m)) * p.X(i, m);
    }
    double loss = 0;
    for (int i = 0; i < n; i++) {
        std::vector<double> w(static_cast<size_t>(n));
        double biggest = -1e300, total = 0;
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < d_k; k++) w[size_t(j)] += Q[size_t(i * d_k + k)] * K[size_t(j * d_k + k)];
            biggest = std::fmax(biggest, w[size_t(j)]);
        }
        for (int j = 0; j < n; j++) total += (w[size_t(j)] = std::exp(w[size_t(j)] - biggest));
        for (int k = 0; k < d_v; k++) {
            double out = 0;
            for (int j = 0; j < n; j++) out += w[size_t(j)] / total * V[size_t(j * d_v + k)];
            loss += out * p.d_out(i, k);
        }
    }
    return loss;
}

static void book_input(Test& t) { t.numbers("d_W_Q", solve(book_problem())); }

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES; c++) t.numbers("case" + std::to_string(c) + ".d_W_Q", solve(random_problem(t)));
    // The same problem at every seed: two equal words (a tie in every row's
    // scores), d_out of both signs, d_k and d_v apart.
    const Matrix X(3, 2, {1, 0, 0, 1, 1, 0}), W_Q(2, 2, {2, 0, 0, -1}), W_K(2, 2, {1, 1, -1, 2});
    const Matrix W_V(3, 2, {1, 0, 0, 1, 1, 1}), d_out(3, 3, {1, -1, 0.5f, 0.5f, 2, 0, -1, 0, 1});
    t.numbers("fixed.d_W_Q", solve({X, W_Q, W_K, W_V, d_out}));
}

static void finite_differences(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Problem p = c == 0 ? book_problem() : random_problem(t);
        Matrix analytic = solve(p);
        t.expect_shape(analytic, p.W_Q.rows, p.W_Q.cols, "d_W_Q (the shape of W_Q)");
        std::vector<double> W(p.W_Q.data.begin(), p.W_Q.data.end()), numeric(W.size());
        for (size_t e = 0; e < W.size(); e++) {
            double kept = W[e];
            W[e] = kept + FD_STEP;
            double up = loss_in_double(p, W);
            W[e] = kept - FD_STEP;
            double down = loss_in_double(p, W);
            W[e] = kept;
            numeric[e] = (up - down) / (2 * FD_STEP);
        }
        std::vector<double> mine(analytic.data.begin(), analytic.data.end());
        double error = grader::rel_error_norm(mine, numeric, FD_FLOOR);
        size_t worst = 0;
        for (size_t e = 1; e < W.size(); e++)
            if (std::fabs(mine[e] - numeric[e]) > std::fabs(mine[worst] - numeric[worst])) worst = e;
        t.expect(error <= FD_TOLERANCE,
                 "for n = %d, d_model = %d, d_k = %d, d_v = %d the relative error is %.1e (tolerance %.0e); "
                 "W_Q[%zu][%zu]: yours %.5g, finite differences %.5g",
                 p.X.rows, p.X.cols, p.W_Q.rows, p.W_V.rows, error, FD_TOLERANCE, worst / size_t(p.W_Q.cols),
                 worst % size_t(p.W_Q.cols), mine[worst], numeric[worst]);
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
                "work back one forward step at a time: out = weights V, softmax, scores = Q K^T, Q = X W_Q^T"),
            grader::compare("hidden_inputs", 3, 1e-4, hidden_inputs,
                            "random sizes: the gradient has W_Q's shape, d_k x d_model; take sizes from the matrices"),
            grader::property("finite_differences", 5, finite_differences,
                             "the softmax's backward step needs both terms: w * (dw - sum of w * dw over the row)"),
            grader::printed_output(1, "run your program: it prints PASS when its gradient matches finite differences"),
        });
}
#endif
