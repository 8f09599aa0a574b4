// tests/unit/matrix_test.cpp: the common matrix header against results worked out by hand
// or by an independent computation (noted beside each).
#include <cmath>
#include <limits>

#include "check.hpp"
#include "matrix.hpp"

int main() {
    // A (2x3) times B (3x2), worked by hand: [1 2 3; 4 5 6][7 8; 9 10; 11 12].
    Matrix A(2, 3, {1, 2, 3, 4, 5, 6});
    Matrix B(3, 2, {7, 8, 9, 10, 11, 12});
    Matrix C = matmul(A, B);
    check(C.rows == 2 && C.cols == 2, "matmul shape is (2x2)");
    check(C(0, 0) == 58 && C(0, 1) == 64 && C(1, 0) == 139 && C(1, 1) == 154, "matmul values");

    Matrix At = transpose(A);
    check(At.rows == 3 && At.cols == 2 && At(2, 0) == 3 && At(0, 1) == 4, "transpose");
    check(add(A, A)(1, 2) == 12 && scale(A, 0.5f)(1, 1) == 2.5f, "add and scale");
    float a[3] = {1, 2, 3}, b[3] = {4, -5, 6};
    check(dot(a, b, 3) == 12, "dot");

    // softmax(1, -1) = 1 / (1 + e^-2) = 0.8807970779778823 (Python, in double).
    float s[2] = {1, -1};
    softmax(s, 2);
    check_near(s[0], 0.8807970779778823, 1e-6, "softmax(1,-1)[0]");
    check_near(s[0] + s[1], 1.0, 1e-6, "softmax sums to 1");
    // Subtracting the maximum keeps large scores finite: same as softmax(0, 1).
    float big[2] = {1000, 1001};
    softmax(big, 2);
    check_near(big[1], 1.0 / (1.0 + std::exp(-1.0)), 1e-6, "softmax of large scores does not overflow");

    // The causal mask: 0 on and below the diagonal, -inf above.
    Matrix M = causal_mask(4);
    bool mask_ok = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            mask_ok = mask_ok && (j <= i ? M(i, j) == 0.0f : M(i, j) == -std::numeric_limits<float>::infinity());
    check(mask_ok, "causal_mask(4) is 0 on and below the diagonal, -inf above");
    Matrix W = softmax_rows(add(Matrix(4, 4, 0.0f), M));
    check_near(W(0, 0), 1.0, 0, "masked row 0 puts everything on position 0");
    check_near(W(3, 1), 0.25, 1e-7, "masked row 3 is uniform over 4 positions");
    check(W(1, 2) == 0.0f && W(2, 3) == 0.0f, "masked weights are exactly 0");

    // SplitMix64 from seed 0: reference values from an independent Python implementation.
    Rng rng(0);
    check(rng.next() == 0xe220a8397b1dcdafull, "Rng(0) first value");
    check(rng.next() == 0x6e789e6aa1b965f4ull, "Rng(0) second value");
    check(rng.next() == 0x06c45d188009454full, "Rng(0) third value");

    // Uniform stays in [0, 1); normal samples have mean 0 and variance 1.
    Rng r(42);
    double lo = 1, hi = 0, sum = 0, sum_sq = 0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = r.uniform();
        lo = std::fmin(lo, u);
        hi = std::fmax(hi, u);
        double z = r.normal();
        sum += z;
        sum_sq += z * z;
    }
    check(lo >= 0 && hi < 1, "uniform in [0, 1)");
    check_near(sum / n, 0.0, 0.01, "normal mean");
    check_near(sum_sq / n, 1.0, 0.02, "normal variance");
    return check_summary("matrix_test");
}
