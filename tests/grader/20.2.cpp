// tests/grader/20.2.cpp: the tests of exercise 20.2 (chapter20/exercises/ex2_Tiny_Dk.cpp).
// The student writes one_number_weights(queries, keys) and trend(w).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(one_number_weights) X(trend)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
#include <algorithm>

namespace tests {
using grader::Test;

constexpr int CASES = 6;  // random problems per hidden test

// Random one-number queries and keys, one query exactly 0 (a flat row).
static void random_problem(Test& t, std::vector<float>& queries, std::vector<float>& keys) {
    queries = t.vector(t.size(1, 6), -3.0f, 3.0f);
    keys = t.vector(t.size(1, 8), -3.0f, 3.0f);
    queries[size_t(t.size(0, int(queries.size()) - 1))] = 0.0f;
}

// The lesson's queries and keys: listing 109's sentence through its 1 x 4 W_Q and W_K.
static void book_problem(std::vector<float>& queries, std::vector<float>& keys) {
    Matrix X = sentence_109();
    queries = matmul(X, transpose(Matrix(1, DM, {+0.20f, -1.00f, +0.00f, +1.00f}))).data;
    keys = matmul(X, transpose(Matrix(1, DM, {+1.00f, +0.00f, +0.00f, +0.00f}))).data;
}

static void book_input(Test& t) {
    std::vector<float> queries, keys;
    book_problem(queries, keys);
    t.numbers("weights", one_number_weights(queries, keys));
}

// Queries and keys up to 15, so products reach the hundreds: exp of a raw
// product overflows float past ~88, so only a softmax that subtracts the row's
// largest score first (matrix.hpp's) gives weights.
constexpr int LARGE_CASES = 2;
constexpr float LARGE = 15.0f;
static void large_problem(Test& t, std::vector<float>& queries, std::vector<float>& keys) {
    queries = t.vector(t.size(1, 6), -LARGE, LARGE);
    keys = t.vector(t.size(2, 8), -LARGE, LARGE);
    // One product of at least 144 in every case, whatever else was drawn.
    const float sign = t.uniform(0.0f, 1.0f) < 0.5f ? -1.0f : 1.0f;
    queries[size_t(t.size(0, int(queries.size()) - 1))] = sign * t.uniform(12.0f, LARGE);
    keys[size_t(t.size(0, int(keys.size()) - 1))] = sign * t.uniform(12.0f, LARGE);
}

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES + LARGE_CASES; c++) {
        std::vector<float> queries, keys;
        if (c <= CASES) random_problem(t, queries, keys);
        else large_problem(t, queries, keys);
        t.numbers("case" + std::to_string(c) + ".weights", one_number_weights(queries, keys));
    }
    // The same worst case at every seed: a row whose scores are all below -104
    // (exp gives 0 unless the row's largest is subtracted; a largest started at
    // 0 is not), tied for the largest; a row past exp's 88; a flat row.
    t.numbers("fixed.weights", one_number_weights({15.0f, -12.0f, 0.0f}, {-10.0f, -9.0f, -12.0f, -9.0f}));
}

// With d_k = 1 each row, read along the keys from smallest to largest, rises
// when q > 0, falls when q < 0, and is flat when q = 0: strictly, wherever two
// keys' scores differ by more than MARGIN (the weights then differ by a factor
// of at least e^MARGIN, far beyond float rounding); uniform rows fail.
constexpr float MARGIN = 1e-3f;
// Rows of attention weights: the shape, no negative entry, each row summing to 1.
static void expect_softmax_rows(Test& t, const Matrix& W, int rows, int cols) {
    t.expect_shape(W, rows, cols, "weights");
    for (int i = 0; i < W.rows; i++) {
        double sum = 0;
        for (int j = 0; j < W.cols; j++) {
            t.expect(W(i, j) >= 0, "weights(%d, %d) = %g is negative", i, j, double(W(i, j)));
            sum += W(i, j);
        }
        t.expect(std::fabs(sum - 1.0) <= 1e-5, "row %d of weights sums to %.6f, not 1", i, sum);
    }
}
static void monotone_in_the_key(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        std::vector<float> queries, keys;
        if (c == 0) book_problem(queries, keys);
        else random_problem(t, queries, keys);
        Matrix w = one_number_weights(queries, keys);
        expect_softmax_rows(t, w, int(queries.size()), int(keys.size()));
        std::vector<int> order(keys.size());
        for (size_t j = 0; j < order.size(); j++) order[j] = int(j);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[size_t(a)] < keys[size_t(b)]; });
        for (int i = 0; i < w.rows; i++) {
            float q = queries[size_t(i)];
            for (size_t s = 1; s < order.size(); s++) {
                float before = w(i, order[s - 1]), after = w(i, order[s]);
                bool apart = std::fabs(q * keys[size_t(order[s])] - q * keys[size_t(order[s - 1])]) > MARGIN;
                bool ok = q > 0   ? (apart ? after > before : after >= before)
                          : q < 0 ? (apart ? after < before : after <= before)
                                  : after == before;
                t.expect(ok, "with q = %g the weight %s from %g (key %g) to %g (key %g)", double(q),
                         q == 0  ? "changes"
                         : q > 0 ? "does not rise"
                                 : "does not fall",
                         double(before), double(keys[size_t(order[s - 1])]), double(after),
                         double(keys[size_t(order[s])]));
            }
        }
    }
}

// trend() on rising, falling, flat and mixed lists, and random ones.
static void trend_classification(Test& t) {
    std::vector<int> trends;
    std::vector<std::vector<float>> lists = {{1, 2, 3}, {3, 2, 1}, {2, 2, 2}, {1, 3, 2}, {1, 1, 2}, {5}};
    for (int c = 0; c < 4 * CASES; c++) {
        std::vector<float> w = t.vector(t.size(2, 6), 0, 1);
        int kind = t.size(0, 3);  // sorted up, sorted down, all equal, as drawn
        if (kind == 0) std::sort(w.begin(), w.end());
        if (kind == 1) std::sort(w.rbegin(), w.rend());
        if (kind == 2) std::fill(w.begin(), w.end(), w[0]);
        lists.push_back(w);
    }
    for (const std::vector<float>& w : lists) trends.push_back(int(trend(w)));
    t.numbers("trends", trends);
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare("book_input", 1, 1e-4, book_input,
                            "with d_k = 1 the score of query i for key j is one product, queries[i] * keys[j]"),
            grader::compare(
                "hidden_inputs", 4, 1e-4, hidden_inputs,
                "random lengths, products in the hundreds: one row per query, one column per key, each row its "
                "own softmax (matrix.hpp's subtracts the row's largest score first)"),
            grader::property(
                "monotone_in_the_key", 2, monotone_in_the_key,
                "each score must be the product of one query and one key, so it grows or shrinks with the key"),
            grader::compare(
                "trend_classification", 2, 0, trend_classification,
                "compare each entry with the one before: all larger, all smaller, all equal, or none of these"),
            grader::printed_output(1, "run your program and compare its lines with the lesson's"),
        });
}
#endif
