// chapter20/exercises/attention109.hpp: listing 109's data and its attention
// function, once, for the exercises of section 20.9.
//
// chapter20/109_Attention_Fn.cpp keeps its own copy on purpose: it is the
// book's listing and reads on its own. The exercises all start from the same
// sequence and projections, so they share them from here.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "matrix.hpp"

constexpr int SL = 4;  // sequence length
constexpr int DM = 4;  // model dimension
constexpr int DK = 3;  // query and key dimension
constexpr int DV = 3;  // value dimension

// One line per row of each matrix: the formatter would run the numbers together.
// clang-format off
// The 4-word sentence, one embedding row per word, (SL x DM).
inline Matrix sentence_109() {
    return Matrix(SL, DM, {
         1.0f,  0.0f,  0.5f, -0.2f,  // the
         0.3f,  0.8f, -0.1f,  0.6f,  // cat
        -0.2f,  0.1f,  0.9f,  0.3f,  // sat
         0.5f, -0.3f,  0.2f,  0.7f,  // down
    });
}
inline const std::vector<std::string>& words_109() {
    static const std::vector<std::string> words = {"the", "cat", "sat", "down"};
    return words;
}

// Chosen rather than trained, as in listings 107 and 109: (DK x DM), (DK x DM), (DV x DM).
inline Matrix WQ_109() {
    return Matrix(DK, DM, {
        -0.54f, +0.23f, +1.14f, +0.16f,
        +1.01f, +0.59f, +3.72f, -0.67f,
        +1.27f, +0.30f, -1.02f, +3.80f,
    });
}
inline Matrix WK_109() {
    return Matrix(DK, DM, {
        +0.92f, -0.40f, +0.21f, +0.11f,
        +0.16f, +0.92f, -0.18f, +0.33f,
        -0.26f, -0.38f, +0.83f, +0.78f,
    });
}
// W_V keeps the first three components of each word.
inline Matrix WV_109() {
    return Matrix(DV, DM, {
        +1.00f, +0.00f, +0.00f, +0.00f,
        +0.00f, +1.00f, +0.00f, +0.00f,
        +0.00f, +0.00f, +1.00f, +0.00f,
    });
}
// clang-format on

// Everything the forward pass made, kept so a backward pass can use it.
struct Attention {
    Matrix Q;        // (queries x d_k): one query row per query position
    Matrix K;        // (keys x d_k): one key row per key position
    Matrix V;        // (keys x d_v): one value row per key position
    Matrix weights;  // (queries x keys): row = query position, column = key position
    Matrix out;      // (queries x d_v): one output vector per query position
};

// Self-attention, as in listing 109: one sequence X supplies the queries, the
// keys and the values; project, score, softmax each row, blend the values.
// Each W is stored one row per output component, as in the listing, so a
// projection is X W^T. No 1/sqrt(d_k) scaling, as in the listing.
// BEGIN LEFT OUT exercise 20.1: with identity projections it is that exercise's whole answer
inline Attention self_attention(const Matrix& X, const Matrix& WQ, const Matrix& WK, const Matrix& WV) {
    Attention a;
    a.Q = matmul(X, transpose(WQ));
    a.K = matmul(X, transpose(WK));
    a.V = matmul(X, transpose(WV));
    a.weights = softmax_rows(matmul(a.Q, transpose(a.K)));
    a.out = matmul(a.weights, a.V);
    return a;
}
// END LEFT OUT

// A weight matrix as listing 109 prints it: words across the top, "%.3f " cells.
inline void print_weights(const Matrix& weights, const std::vector<std::string>& query_words,
                          const std::vector<std::string>& key_words) {
    std::printf("          ");
    for (const std::string& w : key_words) std::printf("%-6s", w.c_str());
    std::printf("\n");
    for (int i = 0; i < weights.rows; i++) {
        std::printf("  %-6s  ", query_words[i].c_str());
        for (int j = 0; j < weights.cols; j++) std::printf("%.3f ", weights(i, j));
        std::printf("\n");
    }
}

// Output vectors as listing 109 prints them: "  word    [+0.318, +0.688, -0.018]".
inline void print_vectors(const Matrix& vectors, const std::vector<std::string>& words) {
    for (int i = 0; i < vectors.rows; i++) {
        std::printf("  %-6s  [", words[i].c_str());
        for (int k = 0; k < vectors.cols; k++) std::printf("%s%+.3f", k ? ", " : "", vectors(i, k));
        std::printf("]\n");
    }
}
