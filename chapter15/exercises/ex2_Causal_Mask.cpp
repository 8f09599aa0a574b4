// ex2_Causal_Mask.cpp: exercise 15.2, the causal mask added to the scores.
// Book section: 15.5.1 (exercise 15.2)
// Exercise: 15.2
//
// Write two functions (their signatures are fixed; the grader calls them):
//
//   Matrix add_causal_mask(const Matrix& scores);
//     scores is (T x T): row i holds query i's scores against the keys 0..T-1.
//     Return scores + M, where M is the causal mask of section 15.5.1: 0 where
//     key j <= query i, minus infinity where j > i (a later position). Entries on
//     and below the diagonal come back unchanged. Write the loops yourself:
//     matrix.hpp's causal_mask(T), which builds M, is left out of this
//     exercise's handout (add(scores, causal_mask(T)) would be the answer).
//
//   Matrix causal_weights(const Matrix& Q, const Matrix& K);
//     Q and K are (T x d_k), one query and one key per position. Return the
//     (T x T) attention weights A = softmax_rows(Q K^T / sqrt(d_k) + M), using
//     your add_causal_mask. (softmax_rows from common/matrix.hpp may be used. A
//     softmax of your own must subtract each row's largest score before
//     exponentiating: the grader's scores reach the hundreds, where exp alone
//     overflows a float.)
//
// main then prints the book's example (the wear row of 15.5) and the causal
// weights of a small made-up sequence, using your two functions.
#include <cmath>
#include <cstdio>
#include <limits>

#include "matrix.hpp"

Matrix add_causal_mask(const Matrix& scores) {
    // BEGIN SOLUTION
    // STUB: return Matrix(scores.rows, scores.cols);
    Matrix masked = scores;  // (T x T)
    for (int i = 0; i < masked.rows; i++)
        for (int j = i + 1; j < masked.cols; j++) masked(i, j) = -std::numeric_limits<float>::infinity();
    return masked;
    // END SOLUTION
}

Matrix causal_weights(const Matrix& Q, const Matrix& K) {
    // BEGIN SOLUTION
    // STUB: return Matrix(Q.rows, K.rows);
    Matrix scores = scale(matmul(Q, transpose(K)), 1.0f / std::sqrt(float(Q.cols)));  // (T x T)
    return softmax_rows(add_causal_mask(scores));
    // END SOLUTION
}

// ---------------------------------------------------------------------------
// The lesson

int main() {
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // The last three positions of "... players wear red": the wear row scores 0, 0, 2 (15.5).
    Matrix scores(3, 3, {
        1.0f, 0.5f, 0.0f,  // players (made up: only its first entry survives the mask)
        0.0f, 0.0f, 2.0f,  // wear, as the text supposes
        0.5f, 1.0f, 1.5f,  // red (made up)
    });
    // clang-format on
    Matrix masked = add_causal_mask(scores);
    std::printf("Scores of players, wear and red (rows: queries, columns: keys), the mask added:\n%s\n\n",
                tensor_str(masked).c_str());
    Matrix unmasked_weights = softmax_rows(scores), weights = softmax_rows(masked);
    std::printf("The wear row's weights without the mask: %s\n", tensor_str(unmasked_weights.row(1), 3).c_str());
    std::printf("and with it (the book: 0.5, 0.5, 0):     %s\n\n", tensor_str(weights.row(1), 3).c_str());

    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // Four positions with made-up two-number queries and keys: A = softmax_rows(Q K^T / sqrt(2) + M).
    Matrix Q(4, 2, {
        1.0f,  0.0f,
        0.0f,  1.0f,
        1.0f,  1.0f,
        2.0f, -1.0f,
    });
    Matrix K(4, 2, {
        1.0f,  0.0f,
        1.0f,  1.0f,
        0.0f,  1.0f,
       -1.0f,  0.5f,
    });
    // clang-format on
    Matrix A = causal_weights(Q, K);
    std::printf("Causal weights of four positions (d_k = 2, scores divided by sqrt(2)):\n%s\n", tensor_str(A).c_str());
    bool upper_zero = true;
    for (int i = 0; i < A.rows; i++)
        for (int j = i + 1; j < A.cols; j++) upper_zero = upper_zero && A(i, j) == 0.0f;
    std::printf("Nothing above the diagonal: %s\n", upper_zero ? "yes" : "no");
    std::printf("Row sums:");
    for (int i = 0; i < A.rows; i++) {
        float sum = 0.0f;
        for (int j = 0; j < A.cols; j++) sum += A(i, j);
        std::printf(" %.3f", sum);
    }
    std::printf("\n");
    return 0;
}
