// tests/grader/15.2.cpp: the tests of exercise 15.2 (chapter15/exercises/ex2_Causal_Mask.cpp),
// add_causal_mask and causal_weights.
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(add_causal_mask) X(causal_weights)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// Masked: minus infinity, or a number so negative that softmax gives it no weight (section 15.5.2).
static bool masked(float x) { return x <= -1e9f; }

static void mask_entries(Test& t) {
    for (int round = 0; round < 10; round++) {
        const int T = t.size(1, 12);
        Matrix scores = t.matrix(T, T, -5.0f, 5.0f);
        Matrix m = add_causal_mask(scores);
        t.expect_shape(m, T, T, "add_causal_mask's result");
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                if (j > i)
                    t.expect(masked(m(i, j)), "T = %d: entry (%d, %d), a later key, is %g; want -infinity", T, i, j,
                             double(m(i, j)));
                else
                    t.expect(m(i, j) == scores(i, j),
                             "T = %d: entry (%d, %d) changed from %g to %g; on and below "
                             "the diagonal the scores stay as they are",
                             T, i, j, double(scores(i, j)), double(m(i, j)));
            }
    }
}

// The wear row of section 15.5: scores 0, 0, 2 become weights 0.5, 0.5, 0.
static void book_wear_row(Test& t) {
    Matrix scores(3, 3, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f, 0.0f});
    Matrix A = softmax_rows(add_causal_mask(scores));
    t.expect_shape(A, 3, 3, "softmax_rows(add_causal_mask(scores))");
    t.numbers("wear_row", std::vector<float>(A.row(1), A.row(1) + 3));
}

// Rounds 0-5: random Q and K. Rounds 6-7: every score raised by the same 200
// (a first column of s in Q and in K, s * s / sqrt(d_k) = 200): the same
// weights, but exp without the row's largest subtracted overflows.
static void hidden_weights(Test& t) {
    for (int round = 0; round < 8; round++) {
        const int T = t.size(1, 10), d_k = t.size(1, 9);
        Matrix Q = t.matrix(T, d_k, -2.0f, 2.0f), K = t.matrix(T, d_k, -2.0f, 2.0f);
        if (round >= 6) {
            const float s = float(std::sqrt(200.0 * std::sqrt(double(d_k))));
            for (int i = 0; i < T; i++) Q(i, 0) = K(i, 0) = s;
        }
        Matrix A = causal_weights(Q, K);
        t.expect_shape(A, T, T, "causal_weights for T queries and T keys");
        t.numbers(("weights_" + std::to_string(round)).c_str(), A);
    }
    // The same worst case at every seed: every visible score below -104, where
    // exp gives 0 unless the row's largest is subtracted (a largest started at 0 is not).
    const Matrix Q(3, 2, {-15.0f, 1.0f, -14.0f, 0.0f, -16.0f, 2.0f}), K(3, 2, {14.0f, 0.0f, 15.0f, 1.0f, 13.0f, 0.0f});
    t.numbers("all_below_minus_100", causal_weights(Q, K));
}

// The rows are shares of the student's weights, zero above the diagonal, and
// ordered as the scores q_i . k_j / sqrt(d_k) are (computed here in double): a
// key that scores more gets strictly more weight, which uniform rows fail.
static void weights_properties(Test& t) {
    for (int round = 0; round < 20; round++) {
        const int T = t.size(1, 12), d_k = t.size(1, 8);
        Matrix Q = t.matrix(T, d_k, -2.0f, 2.0f), K = t.matrix(T, d_k, -2.0f, 2.0f);
        Matrix A = causal_weights(Q, K);
        t.expect_shape(A, T, T, "causal_weights for T queries and T keys");
        t.expect(std::fabs(A(0, 0) - 1.0f) < 1e-6f,
                 "the first position can read only itself, so its weight on "
                 "itself should be 1; it is %g",
                 double(A(0, 0)));
        for (int i = 0; i < T; i++) {
            double sum = 0.0;
            std::vector<double> score(size_t(i + 1), 0.0);
            for (int j = 0; j <= i; j++) {
                for (int c = 0; c < d_k; c++) score[size_t(j)] += double(Q(i, c)) * K(j, c);
                score[size_t(j)] /= std::sqrt(double(d_k));
            }
            for (int j = 0; j < T; j++) {
                t.expect(A(i, j) >= 0.0f, "weight (%d, %d) is negative (%g)", i, j, double(A(i, j)));
                if (j > i)
                    t.expect(A(i, j) == 0.0f, "weight (%d, %d) is above the diagonal but %g, not 0", i, j,
                             double(A(i, j)));
                sum += A(i, j);
            }
            t.expect(std::fabs(sum - 1.0) < 1e-5, "row %d adds up to %.7f, not 1", i, sum);
            for (int j = 0; j <= i; j++)
                for (int k = 0; k <= i; k++)
                    if (score[size_t(j)] > score[size_t(k)] + 1e-3)
                        t.expect(A(i, j) > A(i, k),
                                 "row %d: key %d scores %g and key %d %g, but their weights are "
                                 "%g and %g: a higher score must get more weight",
                                 i, j, score[size_t(j)], k, score[size_t(k)], double(A(i, j)), double(A(i, k)));
        }
    }
}

// Changing the last key moves no weight in the rows before it: no peeking.
static void no_peeking(Test& t) {
    for (int round = 0; round < 10; round++) {
        const int T = t.size(2, 10), d_k = t.size(1, 8);
        Matrix Q = t.matrix(T, d_k, -2.0f, 2.0f), K = t.matrix(T, d_k, -2.0f, 2.0f);
        Matrix before = causal_weights(Q, K);
        for (int c = 0; c < d_k; c++) K(T - 1, c) += 5.0f;
        Matrix after = causal_weights(Q, K);
        t.expect_shape(after, T, T, "causal_weights");
        for (int i = 0; i < T - 1; i++)
            for (int j = 0; j < T; j++)
                t.expect(before(i, j) == after(i, j),
                         "changing the last key moved weight (%d, %d) from %g to %g: "
                         "row %d must not see position %d",
                         i, j, double(before(i, j)), double(after(i, j)), i, T - 1);
        bool last_row_moved = false;  // while the last row, which sees that key, does change
        for (int j = 0; j < T; j++) last_row_moved = last_row_moved || before(T - 1, j) != after(T - 1, j);
        t.expect(last_row_moved,
                 "changing the last key left the last row's weights as they were, but that row "
                 "reads the last key");
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("mask_entries", 2, mask_entries,
                             "entry (i, j) is masked exactly when key j comes after query i; the rest are left alone"),
            grader::compare("book_wear_row", 1, 1e-4, book_wear_row,
                            "the book's wear row (scores 0, 0, 2) should become 0.5, 0.5, 0 once red is masked"),
            grader::compare("hidden_weights", 4, 1e-4, hidden_weights,
                            "scores are Q K^T divided by the square root of d_k (the number of columns of Q), "
                            "then the mask, then softmax along each row (the row's largest score subtracted first)"),
            grader::property("weights_properties", 1, weights_properties,
                             "every row is non-negative, adds up to 1, is 0 above the diagonal and gives a key that "
                             "scores more, more weight"),
            grader::property("no_peeking", 1, no_peeking,
                             "a row may use its own position and earlier ones only: is the mask on the right side of "
                             "the diagonal, and do masked scores really get no weight?"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
