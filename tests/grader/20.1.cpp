// tests/grader/20.1.cpp: the tests of exercise 20.1 (chapter20/exercises/ex1_Identity_Projections.cpp).
// The student writes identity(n) and raw_dot_product_attention(X).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(identity) X(raw_dot_product_attention)
GRADER_FIELDS(Attention, Q, K, V, weights, out)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
#include <algorithm>

namespace tests {
using grader::Test;

constexpr int CASES = 5;  // random sequences per hidden test
// Two float computations of the same numbers, compared as the compare tests
// are (judge.hpp): relative, with a floor of 1e-2 of the output's largest entry.
constexpr double AGREEMENT_TOLERANCE = 1e-4;
static double floor_of(const Matrix& A) {
    double largest = 1e-3;
    for (float x : A.data) largest = std::max(largest, double(std::fabs(x)));
    return 1e-2 * largest;
}

// A random sequence: n positions of d numbers each.
static Matrix random_sequence(Test& t) { return t.matrix(t.size(1, 7), t.size(1, 6)); }

// identity(n) exactly: ones on the diagonal, zeros elsewhere, n x n.
static void expect_identity(Test& t, int n) {
    Matrix I = identity(n);
    t.expect_shape(I, n, n, "identity(n)");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t.expect(I(i, j) == (i == j ? 1.0f : 0.0f), "identity(%d) has %g at (%d, %d)", n, double(I(i, j)), i, j);
}

static void book_input(Test& t) {
    Attention a = raw_dot_product_attention(sentence_109());
    t.numbers("weights", a.weights);
    t.numbers("out", a.out);
}

// Scores in the tens and hundreds: exp of a raw score overflows float past ~88,
// so only a softmax that subtracts the row's largest score first (matrix.hpp's) works.
constexpr int LARGE_CASES = 2;
constexpr float LARGE = 5.0f;  // entries in -5 .. 5, so x_i . x_i reaches 150

// Entries in -LARGE .. LARGE, and one position rescaled so that x_i . x_i is 100
// to 150 whatever was drawn: that row's largest score is past 88.
static Matrix large_sequence(Test& t) {
    Matrix X = t.matrix(t.size(2, 7), t.size(4, 6), -LARGE, LARGE);
    const int i = t.size(0, X.rows - 1);
    double length2 = 0;
    for (int k = 0; k < X.cols; k++) length2 += double(X(i, k)) * X(i, k);
    const double factor = std::sqrt(t.uniform(100.0f, 150.0f) / std::max(length2, 1e-6));
    for (int k = 0; k < X.cols; k++) X(i, k) = float(X(i, k) * factor);
    return X;
}

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES + LARGE_CASES; c++) {
        Matrix X = c <= CASES ? random_sequence(t) : large_sequence(t);
        Attention a = raw_dot_product_attention(X);
        std::string name = "case" + std::to_string(c);
        t.numbers(name + ".weights", a.weights);
        t.numbers(name + ".out", a.out);
    }
    // The same worst case at every seed: two equal words and their opposite, so
    // each row holds a tie for the largest score, 126 (past exp's 88), and -126.
    Attention a = raw_dot_product_attention(Matrix(3, 4, {8, 7, 3, 2, 8, 7, 3, 2, -8, -7, -3, -2}));
    t.numbers("tied_past_88.weights", a.weights);
    t.numbers("tied_past_88.out", a.out);
}

// The exercise's claim: raw attention is Q/K/V attention with identity
// projections (the header's self_attention, with the test's own identity),
// and the student's identity(n) is that identity.
static void matches_identity_projections(Test& t) {
    for (int c = 0; c < CASES; c++) {
        Matrix X = random_sequence(t);
        expect_identity(t, X.cols);
        expect_identity(t, t.size(1, 9));
        Matrix I(X.cols, X.cols);
        for (int i = 0; i < X.cols; i++) I(i, i) = 1.0f;
        Attention want = self_attention(X, I, I, I), got = raw_dot_product_attention(X);
        t.expect_shape(got.weights, X.rows, X.rows, "weights");
        t.expect_shape(got.out, X.rows, X.cols, "out");
        for (size_t k = 0; k < want.weights.data.size(); k++)
            t.expect(grader::rel_error(got.weights.data[k], want.weights.data[k], floor_of(want.weights)) <=
                         AGREEMENT_TOLERANCE,
                     "for a %d x %d sequence, weight %zu is %g; with identity projections it is %g", X.rows, X.cols, k,
                     double(got.weights.data[k]), double(want.weights.data[k]));
        for (size_t k = 0; k < want.out.data.size(); k++)
            t.expect(grader::rel_error(got.out.data[k], want.out.data[k], floor_of(want.out)) <= AGREEMENT_TOLERANCE,
                     "for a %d x %d sequence, output %zu is %g; with identity projections it is %g", X.rows, X.cols, k,
                     double(got.out.data[k]), double(want.out.data[k]));
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
                "score each word against every word with dot(), then softmax each row, then blend the rows of X"),
            // 1e-3: with scores past 100 a float score is off by up to 8e-6, which exp
            // carries into the weights; an answer in double is 1.1e-4 from the float
            // reference at seed 309974415. A wrong answer is off by far more.
            grader::compare(
                "hidden_inputs", 5, 1e-3, hidden_inputs,
                "random sizes (take n from X.rows and d from X.cols, never from SL or DM) and scores in the "
                "hundreds: softmax(a.weights.row(i), n) from matrix.hpp subtracts the row's largest first"),
            grader::property(
                "matches_identity_projections", 3, matches_identity_projections,
                "identity(n): ones on the diagonal only; with no projections the query, key and value of a "
                "word are all its own row of X"),
            grader::printed_output(1, "run your program and compare its lines with the lesson's"),
        });
}
#endif
