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

constexpr int CASES = 5;                     // random sequences per hidden test

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

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES; c++) {
        Attention a = solve(random_problem(t));
        std::string name = "case" + std::to_string(c);
        t.numbers(name + ".weights", a.weights);
        t.numbers(name + ".out", a.out);
    }
}

// ---------------------------------------------------------------------------
// Properties the section states, in the student's build alone.

// (n_dec x n_enc) weights: 3 x 5 for the lesson's 3 queries over 5 keys.
static void shapes(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Problem p = c == 0 ? book_problem() : random_problem(t);
        Attention a = solve(p);
        int n_dec = p.decoder.rows, n_enc = p.encoder.rows;
        char what[96];
        std::snprintf(what, sizeof what, "for %d decoder positions over %d encoder positions, weights", n_dec, n_enc);
        t.expect_shape(a.weights, n_dec, n_enc, what);
        t.expect_shape(a.out, n_dec, p.W_V.rows, "out");
        t.expect_shape(a.Q, n_dec, p.W_Q.rows, "Q");
        t.expect_shape(a.K, n_enc, p.W_K.rows, "K");
        t.expect_shape(a.V, n_enc, p.W_V.rows, "V");
    }
}

// Weights are never negative and every row sums to 1 (each row is a softmax).
static void rows_sum_to_one(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Problem p = c == 0 ? book_problem() : random_problem(t);
        Attention a = solve(p);
        t.expect_softmax_rows(a.weights, p.decoder.rows, p.encoder.rows);
    }
}

// Each output is a blend of the encoder's values: every component lies
// between the smallest and the largest value the encoder offers.
static void outputs_blend_encoder_values(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        Problem p = c == 0 ? book_problem() : random_problem(t);
        Attention a = solve(p);
        Matrix V = matmul(p.encoder, transpose(p.W_V));  // (n_enc x d_v): the test's own values
        t.expect_shape(a.out, p.decoder.rows, V.cols, "out");
        for (int k = 0; k < V.cols; k++) {
            float lo = V(0, k), hi = V(0, k);
            for (int j = 1; j < V.rows; j++) lo = std::min(lo, V(j, k)), hi = std::max(hi, V(j, k));
            float slack = 1e-5f * (1.0f + std::fabs(lo) + std::fabs(hi));
            for (int i = 0; i < a.out.rows; i++)
                t.expect(a.out(i, k) >= lo - slack && a.out(i, k) <= hi + slack,
                         "out(%d, %d) = %g lies outside the encoder's values %g .. %g", i, k, double(a.out(i, k)),
                         double(lo), double(hi));
        }
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(argc, argv, GRADER_LESSON(lesson_main), {
        grader::compare("book_input", 2, 1e-4, book_input,
                        "the lesson's sentences: check which sequence gives the queries and which the keys and values"),
        grader::compare("hidden_inputs", 3, 1e-4, hidden_inputs,
                        "random sizes: every size must come from the arguments; no 1/sqrt(d_k), as in listing 109"),
        grader::property("shapes", 1, shapes,
                         "weights has one row per decoder position and one column per encoder position"),
        grader::property("rows_sum_to_one", 1, rows_sum_to_one,
                         "softmax each row of the scores, one query at a time (softmax_rows)"),
        grader::property("outputs_blend_encoder_values", 1, outputs_blend_encoder_values,
                         "the outputs mix the encoder's values (V from the encoder, through W_V)"),
        grader::printed_output(2, "run your program and compare its lines with the lesson's; main should call cross_attention"),
    });
}
#endif
