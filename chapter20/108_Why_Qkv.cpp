// 108_Why_Qkv.cpp: the same three words with and without learned projections.
// Book section: 20.5 (listing 108, Figure 20-4)
//
// Without projections the embeddings' geometry decides the pattern; with
// them, A can be made to attend to C, the word least like it.
#include <cstdio>

#include "cli.hpp"  // takes_no_options
#include "matrix.hpp"

constexpr int N = 3;  // words
constexpr int D = 4;  // components per word

// Each row of X against every row of Y, softmaxed, printed as one line per word.
static void print_attention(const Matrix& X, const Matrix& Y) {
    for (int i = 0; i < N; i++) {
        float scores[N];
        for (int j = 0; j < N; j++) scores[j] = dot(X.row(i), Y.row(j), D);
        softmax(scores, N);
        std::printf("  Word %c attends to: A=%.3f  B=%.3f  C=%.3f\n", 'A' + i, scores[0], scores[1], scores[2]);
    }
}

int main(int argc, char** argv) {
    takes_no_options(argc, argv);
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // Three vectors that are geometrically similar but semantically different
    Matrix X(N, D, {
        0.9f, 0.1f, 0.8f, 0.2f,  // word A
        0.8f, 0.2f, 0.7f, 0.3f,  // word B, similar to A
        0.1f, 0.9f, 0.2f, 0.8f,  // word C, different
    });
    // clang-format on

    std::printf("Raw dot-product attention, no projections\n\n");
    print_attention(X, X);

    std::printf("\nA and B always attend to each other, being similar.\n");
    std::printf("The network cannot learn a different pattern.\n\n");

    // With projections, A can attend to C
    std::printf("With learned Q/K projections:\n\n");

    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // W_Q designed so A's query aligns with C's key: it reverses the components.
    Matrix W_Q(D, D, {
        0, 0, 0, 1,
        0, 0, 1, 0,
        0, 1, 0, 0,
        1, 0, 0, 0,
    });
    // W_K = identity (keys unchanged)
    Matrix W_K(D, D, {
        1, 0, 0, 0,
        0, 1, 0, 0,
        0, 0, 1, 0,
        0, 0, 0, 1,
    });
    // clang-format on

    // The listing stores each W as one row per output component, so X W^T.
    Matrix Q = matmul(X, transpose(W_Q));  // (N x D)
    Matrix K = matmul(X, transpose(W_K));  // (N x D)
    print_attention(Q, K);

    std::printf("\nThe projection reversed the query dimensions.\n");
    std::printf("Now A's query matches C's key better than B's.\n");
    std::printf("The network learned to look for something different\n");
    std::printf("from what the raw vectors would suggest.\n");
    return 0;
}
