// tests/grader/20.1.cpp: the tests of exercise 20.1 (chapter20/exercises/ex1_Identity_Projections.cpp).
// The student writes identity(n) and raw_dot_product_attention(X).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(identity) X(raw_dot_product_attention)
GRADER_FIELDS(Attention, Q, K, V, weights, out)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr int CASES = 5;                      // random sequences per hidden test
constexpr double AGREEMENT_TOLERANCE = 1e-5;  // two float computations of the same numbers

// A random sequence: n positions of d numbers each.
static Matrix random_sequence(Test& t) { return t.matrix(t.size(1, 7), t.size(1, 6)); }

static void identity_matrix(Test& t) {
    for (int c = 0; c < CASES; c++) {
        int n = t.size(1, 9);
        Matrix I = identity(n);
        t.expect_shape(I, n, n, "identity(n)");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                t.expect(I(i, j) == (i == j ? 1.0f : 0.0f), "identity(%d) has %g at (%d, %d)", n, double(I(i, j)), i, j);
    }
}

static void book_input(Test& t) {
    Attention a = raw_dot_product_attention(sentence_109());
    t.numbers("weights", a.weights);
    t.numbers("out", a.out);
}

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES; c++) {
        Attention a = raw_dot_product_attention(random_sequence(t));
        std::string name = "case" + std::to_string(c);
        t.numbers(name + ".weights", a.weights);
        t.numbers(name + ".out", a.out);
    }
}

// (n x n) weights, never negative, every row summing to 1; (n x d) outputs.
static void weights_are_softmax_rows(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Matrix X = c == 0 ? sentence_109() : random_sequence(t);
        Attention a = raw_dot_product_attention(X);
        t.expect_softmax_rows(a.weights, X.rows, X.rows);
        t.expect_shape(a.out, X.rows, X.cols, "out");
    }
}

// The exercise's claim: raw attention is Q/K/V attention with identity
// projections (the header's self_attention, with the test's own identity).
static void matches_identity_projections(Test& t) {
    for (int c = 0; c < CASES; c++) {
        Matrix X = random_sequence(t);
        Matrix I(X.cols, X.cols);
        for (int i = 0; i < X.cols; i++) I(i, i) = 1.0f;
        Attention want = self_attention(X, I, I, I), got = raw_dot_product_attention(X);
        t.expect_shape(got.weights, X.rows, X.rows, "weights");
        t.expect_shape(got.out, X.rows, X.cols, "out");
        for (size_t k = 0; k < want.weights.data.size(); k++)
            t.expect(grader::rel_error(got.weights.data[k], want.weights.data[k], 1e-3) <= AGREEMENT_TOLERANCE,
                     "for a %d x %d sequence, weight %zu is %g; with identity projections it is %g", X.rows, X.cols, k,
                     double(got.weights.data[k]), double(want.weights.data[k]));
        for (size_t k = 0; k < want.out.data.size(); k++)
            t.expect(grader::rel_error(got.out.data[k], want.out.data[k], 1e-3) <= AGREEMENT_TOLERANCE,
                     "for a %d x %d sequence, output %zu is %g; with identity projections it is %g", X.rows, X.cols, k,
                     double(got.out.data[k]), double(want.out.data[k]));
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(argc, argv, GRADER_LESSON(lesson_main), {
        grader::property("identity_matrix", 1, identity_matrix, "ones on the diagonal, zeros everywhere else, n x n"),
        grader::compare("book_input", 2, 1e-4, book_input,
                        "score each word against every word with dot(), then softmax each row, then blend the rows of X"),
        grader::compare("hidden_inputs", 2, 1e-4, hidden_inputs,
                        "random sizes: take n from X.rows and d from X.cols, never from SL or DM"),
        grader::property("weights_are_softmax_rows", 1, weights_are_softmax_rows,
                         "one softmax per row of scores: softmax(a.weights.row(i), n)"),
        grader::property("matches_identity_projections", 2, matches_identity_projections,
                         "with no projections the query, key and value of a word are all its own row of X"),
        grader::printed_output(2, "run your program and compare its lines with the lesson's"),
    });
}
#endif
