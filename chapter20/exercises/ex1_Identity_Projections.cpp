// ex1_Identity_Projections.cpp: with identity projections, Q/K/V attention is raw dot-product attention.
// Book section: 20.9 (exercise 1)
// Exercise: 20.1
//
// With W_Q = W_K = W_V = I every query, key and value is the word's own
// embedding, so the attention function should reduce to chapter 19's
// attention: score = x_i . x_j, then blend the x_j. We compute it both ways.
//
// You write:
//   Matrix identity(int n);
//     the (n x n) identity matrix.
//   Attention raw_dot_product_attention(const Matrix& X);
//     chapter 19's attention over the rows of X (n x d), with no projections:
//     weights (n x n), row i the softmax of x_i . x_j over every j, and out
//     (n x d), row i the blend of the rows x_j by row i's weights. Only the
//     weights and out fields are read. Use dot and softmax from matrix.hpp
//     (its softmax subtracts the row's largest score before exp, so scores in
//     the hundreds do not overflow; a softmax of your own must do the same).
//     Compute it yourself, from the rows of X, with no projection: main checks
//     your answer against listing 109's steps with W_Q = W_K = W_V = I. (The
//     header's self_attention is left out of this exercise's handout: called
//     with identities it would be the whole answer.)
// The grader calls both on random sizes and random sequences, some with
// entries up to 5 (scores up to 150); main prints the lesson, which checks that
// the two computations agree.
#include <cmath>
#include <cstdio>

#include "attention109.hpp"

// The (n x n) identity. Q and K must match, so d_k = d_v = d_model here.
static Matrix identity(int n) {
    // BEGIN SOLUTION
    Matrix I(n, n);
    for (int i = 0; i < n; i++) I(i, i) = 1.0f;
    return I;
    // STUB: return Matrix(n, n);  // zeros, so that main still runs
    // END SOLUTION
}

// Chapter 19's attention with every position as a query: each embedding is
// scored against every embedding, and the same embeddings are blended.
static Attention raw_dot_product_attention(const Matrix& X) {
    Attention a;
    a.weights = Matrix(X.rows, X.rows);  // (n x n)
    a.out = Matrix(X.rows, X.cols);      // (n x d): the blend of raw embeddings
    // BEGIN SOLUTION
    for (int i = 0; i < X.rows; i++) {
        for (int j = 0; j < X.rows; j++) a.weights(i, j) = dot(X.row(i), X.row(j), X.cols);
        softmax(a.weights.row(i), X.rows);
        for (int k = 0; k < X.cols; k++) {
            float blend = 0.0f;
            for (int j = 0; j < X.rows; j++) blend += a.weights(i, j) * X(j, k);
            a.out(i, k) = blend;
        }
    }
    // END SOLUTION
    return a;
}

static float largest_difference(const Matrix& A, const Matrix& B) {
    float largest = 0.0f;
    for (size_t i = 0; i < A.data.size(); i++) largest = std::fmax(largest, std::fabs(A.data[i] - B.data[i]));
    return largest;
}

int main() {
    Matrix X = sentence_109();
    const std::vector<std::string>& words = words_109();
    Matrix I = identity(DM);  // (DM x DM), standing in for W_Q, W_K and W_V

    // Listing 109's attention function, step by step, with I for every W.
    Attention projected;
    projected.Q = matmul(X, transpose(I));
    projected.K = matmul(X, transpose(I));
    projected.V = matmul(X, transpose(I));
    projected.weights = softmax_rows(matmul(projected.Q, transpose(projected.K)));
    projected.out = matmul(projected.weights, projected.V);
    Attention raw = raw_dot_product_attention(X);

    std::printf("W_Q = W_K = W_V = the %dx%d identity, so d_k = d_v = d_model = %d\n\n", I.rows, I.cols, DM);
    std::printf("Attention function (listing 109), weights:\n\n");
    print_weights(projected.weights, words, words);
    std::printf("\nAttention function (listing 109), outputs, d_v=%d:\n\n", projected.out.cols);
    print_vectors(projected.out, words);

    std::printf("\nRaw dot-product attention (chapter 19), weights:\n\n");
    print_weights(raw.weights, words, words);
    std::printf("\nRaw dot-product attention (chapter 19), outputs:\n\n");
    print_vectors(raw.out, words);

    float weights_gap = largest_difference(projected.weights, raw.weights);
    float out_gap = largest_difference(projected.out, raw.out);
    std::printf("\nLargest difference in the weights: %g\n", weights_gap);
    std::printf("Largest difference in the outputs: %g\n", out_gap);
    float gap = std::fmax(weights_gap, out_gap);
    // The same numbers summed in another order may differ in the last bit: both are the same result.
    std::printf("Same result: %s\n", gap < 1e-6f ? "yes, within float rounding" : "no");
    return 0;
}
