// 109_Attention_Fn.cpp: the complete attention function, weights and outputs.
// Book section: 20.6 (listing 109, Figure 20-5)
//
// This is the block a transformer layer repeats: project, score, softmax,
// blend the values.
#include <cstdio>

#include "cli.hpp"  // takes_no_options
#include "matrix.hpp"

constexpr int SL = 4;  // sequence length
constexpr int DM = 4;  // model dimension
constexpr int DK = 3;  // query and key dimension
constexpr int DV = 3;  // value dimension

struct Attention {
    Matrix weights;  // (SL x SL): row = query position, column = key position
    Matrix out;      // (SL x DV): one output vector per position
};

// Q/K/V attention over one sequence. Each W is stored one row per output
// component, as in the listing, so every projection is X W^T.
static Attention attention(const Matrix& X, const Matrix& WQ, const Matrix& WK, const Matrix& WV) {
    Matrix Q = matmul(X, transpose(WQ));  // (SL x DK)
    Matrix K = matmul(X, transpose(WK));  // (SL x DK)
    Matrix V = matmul(X, transpose(WV));  // (SL x DV)

    // Raw Q K^T, no 1/sqrt(d_k): the book's listing does not scale, and Figure 20-5's weights are these. Chapter 15
    // (Lab 4 on, S = Q K^T / sqrt(d_k)) and the tiny model (attend_forward) divide the scores by sqrt(key width).
    Matrix weights = softmax_rows(matmul(Q, transpose(K)));  // (SL x SL)
    Matrix out = matmul(weights, V);                         // (SL x DV)
    return {weights, out};
}

int main(int argc, char** argv) {
    takes_no_options(argc, argv);
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    Matrix X(SL, DM, {
         1.0f,  0.0f,  0.5f, -0.2f,  // the
         0.3f,  0.8f, -0.1f,  0.6f,  // cat
        -0.2f,  0.1f,  0.9f,  0.3f,  // sat
         0.5f, -0.3f,  0.2f,  0.7f,  // down
    });
    const char* words[SL] = {"the", "cat", "sat", "down"};

    // Same chosen projections as listing 107 (20.4)
    Matrix WQ(DK, DM, {
        -0.54f, +0.23f, +1.14f, +0.16f,
        +1.01f, +0.59f, +3.72f, -0.67f,
        +1.27f, +0.30f, -1.02f, +3.80f,
    });
    Matrix WK(DK, DM, {
        +0.92f, -0.40f, +0.21f, +0.11f,
        +0.16f, +0.92f, -0.18f, +0.33f,
        -0.26f, -0.38f, +0.83f, +0.78f,
    });
    // W_V picks out different content from W_K, which is the whole point of keeping them separate
    Matrix WV(DV, DM, {
        +1.00f, +0.00f, +0.00f, +0.00f,
        +0.00f, +1.00f, +0.00f, +0.00f,
        +0.00f, +0.00f, +1.00f, +0.00f,
    });
    // clang-format on

    Attention result = attention(X, WQ, WK, WV);

    std::printf("Attention weights, rows query, cols key\n\n");
    std::printf("          ");
    for (int j = 0; j < SL; j++) std::printf("%-6s", words[j]);
    std::printf("\n");
    for (int i = 0; i < SL; i++) {
        std::printf("  %-6s  ", words[i]);
        for (int j = 0; j < SL; j++) std::printf("%.3f ", result.weights(i, j));
        std::printf("\n");
    }

    std::printf("\nOutput vectors, d_v=%d\n\n", DV);
    for (int i = 0; i < SL; i++)
        std::printf("  %-6s  [%+.3f, %+.3f, %+.3f]\n", words[i], result.out(i, 0), result.out(i, 1), result.out(i, 2));

    std::printf("\nEvery row of the weight matrix sums to 1.\n");
    std::printf("Parameters: W_Q %dx%d + W_K %dx%d + W_V %dx%d = %d\n", DK, DM, DK, DM, DV, DM, (DK + DK + DV) * DM);
    return 0;
}
