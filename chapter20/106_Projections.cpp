// 106_Projections.cpp: one input projected into a query, a key and a value.
// Book section: 20.3 (listing 106, Figure 20-2)
//
// The same four numbers go through three different matrices and come out as
// three different vectors, each with its own job.
#include <cstdio>

#include "cli.hpp"  // takes_no_options
#include "matrix.hpp"

constexpr int D_MODEL = 4;  // input dimension
constexpr int D_K = 3;      // key/query dimension
constexpr int D_V = 3;      // value dimension

// out = x W^T: the listing stores each W as one row per output component.
static Matrix project(const Matrix& x, const Matrix& W) { return matmul(x, transpose(W)); }

int main(int argc, char** argv) {
    takes_no_options(argc, argv);
    // An input vector (e.g., one position's embedding)
    Matrix x(1, D_MODEL, {0.5f, -0.2f, 0.8f, 0.1f});

    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // Three learned projection matrices, (D_K x D_MODEL) and (D_V x D_MODEL)
    Matrix W_Q(D_K, D_MODEL, {
         0.3f, -0.1f,  0.4f,  0.2f,
         0.1f,  0.5f, -0.2f,  0.3f,
        -0.2f,  0.3f,  0.1f, -0.4f,
    });
    Matrix W_K(D_K, D_MODEL, {
         0.2f,  0.4f, -0.1f,  0.3f,
        -0.3f,  0.1f,  0.5f,  0.2f,
         0.4f, -0.2f,  0.3f, -0.1f,
    });
    Matrix W_V(D_V, D_MODEL, {
         0.1f, -0.3f,  0.2f,  0.5f,
         0.4f,  0.2f, -0.1f,  0.3f,
        -0.1f,  0.5f,  0.3f, -0.2f,
    });
    // clang-format on

    Matrix q = project(x, W_Q);  // (1 x D_K)
    Matrix k = project(x, W_K);  // (1 x D_K)
    Matrix v = project(x, W_V);  // (1 x D_V)

    std::printf("Input x = [%.1f, %.1f, %.1f, %.1f]\n\n", x(0, 0), x(0, 1), x(0, 2), x(0, 3));
    std::printf("Projected through three different matrices:\n");
    std::printf("  Query Q = [%+.3f, %+.3f, %+.3f]\n", q(0, 0), q(0, 1), q(0, 2));
    std::printf("  Key   K = [%+.3f, %+.3f, %+.3f]\n", k(0, 0), k(0, 1), k(0, 2));
    std::printf("  Value V = [%+.3f, %+.3f, %+.3f]\n\n", v(0, 0), v(0, 1), v(0, 2));

    std::printf("Same input, three different representations.\n");
    std::printf("Q asks 'what am I looking for?'\n");
    std::printf("K answers 'what can I be matched on?'\n");
    std::printf("V holds 'what content do I provide?'\n");
    return 0;
}
