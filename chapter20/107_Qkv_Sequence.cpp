// 107_Qkv_Sequence.cpp: every position of a 4-word sequence attends to every other.
// Book section: 20.4 (listing 107, Figure 20-3)
//
// W_Q and W_K are shared by all positions; the rows differ only because the
// inputs do.
#include <cstdio>

#include "cli.hpp"  // takes_no_options
#include "matrix.hpp"

constexpr int SEQ_LEN = 4;
constexpr int D_MODEL = 4;
constexpr int D_K = 3;

// out = X W^T: the listing stores each W as one row per output component.
static Matrix project(const Matrix& X, const Matrix& W) { return matmul(X, transpose(W)); }

int main(int argc, char** argv) {
    takes_no_options(argc, argv);
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    Matrix X(SEQ_LEN, D_MODEL, {
         1.0f,  0.0f,  0.5f, -0.2f,  // the
         0.3f,  0.8f, -0.1f,  0.6f,  // cat
        -0.2f,  0.1f,  0.9f,  0.3f,  // sat
         0.5f, -0.3f,  0.2f,  0.7f,  // down
    });
    const char* words[SEQ_LEN] = {"the", "cat", "sat", "down"};

    // Chosen rather than trained, so the pattern is readable. Training would find its own.
    Matrix W_Q(D_K, D_MODEL, {
        -0.54f, +0.23f, +1.14f, +0.16f,
        +1.01f, +0.59f, +3.72f, -0.67f,
        +1.27f, +0.30f, -1.02f, +3.80f,
    });
    Matrix W_K(D_K, D_MODEL, {
        +0.92f, -0.40f, +0.21f, +0.11f,
        +0.16f, +0.92f, -0.18f, +0.33f,
        -0.26f, -0.38f, +0.83f, +0.78f,
    });
    // clang-format on

    Matrix Q = project(X, W_Q);  // (SEQ_LEN x D_K): one query row per position
    Matrix K = project(X, W_K);  // (SEQ_LEN x D_K): one key row per position

    std::printf("Q/K/V attention on a 4 word sequence\n\n");
    for (int i = 0; i < SEQ_LEN; i++) {
        float w[SEQ_LEN];  // query i against every key
        for (int j = 0; j < SEQ_LEN; j++) w[j] = dot(Q.row(i), K.row(j), D_K);
        softmax(w, SEQ_LEN);

        int best = 0;
        for (int j = 1; j < SEQ_LEN; j++)
            if (w[j] > w[best]) best = j;

        std::printf("  \"%-4s\" attends to: ", words[i]);
        for (int j = 0; j < SEQ_LEN; j++) std::printf("%s=%.2f ", words[j], w[j]);
        std::printf("\n      strongest: \"%s\"\n\n", words[best]);
    }

    std::printf("Every position builds its own query, so\n");
    std::printf("every row differs. W_Q and W_K are\n");
    std::printf("shared across positions, so it is the\n");
    std::printf("input that differs, not the weights.\n");
    return 0;
}
