// 15_1_Kernel_Smoothing.cpp: softmax of dot products as a Gaussian kernel smoother.
// Book section: 15.1.3
//
// A kernel smoother weights entry j by exp(-|q - k_j|^2 / 2) and normalises.
// Expanding the square, -|q - k_j|^2 / 2 = q.k_j - |k_j|^2 / 2 - |q|^2 / 2: the
// last term cancels in the normalisation, and the middle one does too when every
// key has the same length. Then the kernel weights are softmax(q.k_j) exactly;
// with keys of different lengths they are softmax(q.k_j - |k_j|^2 / 2).
#include <cmath>
#include <cstdio>
#include <vector>

#include "cli.hpp"
#include "maths.hpp"  // exp_f
#include "matrix.hpp"

constexpr int ENTRIES = 2;  // keys in each table
constexpr int D = 2;        // components of each query and key

// softmax(q.k_j): the soft lookup's weights.
static std::vector<float> dot_weights(const std::vector<float>& q, const Matrix& keys) {
    std::vector<float> w;
    for (int j = 0; j < keys.rows; j++) w.push_back(dot(q.data(), keys.row(j), D));
    softmax(w.data(), keys.rows);
    return w;
}

// exp(-|q - k_j|^2 / 2), divided by their sum: the kernel smoother's weights.
static std::vector<float> gaussian_weights(const std::vector<float>& q, const Matrix& keys) {
    std::vector<float> w;
    float total = 0.0f;
    for (int j = 0; j < keys.rows; j++) {
        float squared_distance = 0.0f;
        for (int c = 0; c < D; c++) squared_distance += (q[c] - keys(j, c)) * (q[c] - keys(j, c));
        w.push_back(exp_f(-0.5f * squared_distance));
        total += w.back();
    }
    for (float& a : w) a /= total;
    return w;
}

// softmax(q.k_j - |k_j|^2 / 2): the dot product with the expansion's middle term put back.
static std::vector<float> corrected_weights(const std::vector<float>& q, const Matrix& keys) {
    std::vector<float> w;
    for (int j = 0; j < keys.rows; j++)
        w.push_back(dot(q.data(), keys.row(j), D) - 0.5f * dot(keys.row(j), keys.row(j), D));
    softmax(w.data(), keys.rows);
    return w;
}

static float largest_difference(const std::vector<float>& a, const std::vector<float>& b) {
    float largest = 0.0f;
    for (size_t j = 0; j < a.size(); j++) largest = std::fmax(largest, std::fabs(a[j] - b[j]));
    return largest;
}

static void compare(const char* title, const Matrix& keys, const std::vector<std::vector<float>>& queries) {
    std::printf("%s: k1 = (%g, %g), k2 = (%g, %g); |k1| = %.3f, |k2| = %.3f\n", title, keys(0, 0), keys(0, 1),
                keys(1, 0), keys(1, 1), std::sqrt(dot(keys.row(0), keys.row(0), D)),
                std::sqrt(dot(keys.row(1), keys.row(1), D)));
    for (const std::vector<float>& q : queries) {
        std::vector<float> by_dot = dot_weights(q, keys);
        std::vector<float> by_kernel = gaussian_weights(q, keys);
        std::vector<float> corrected = corrected_weights(q, keys);
        std::printf("\n  q = (%g, %g)\n", q[0], q[1]);
        std::printf("    softmax(q.k)             %s\n", tensor_str(by_dot).c_str());
        std::printf("    Gaussian kernel          %s\n", tensor_str(by_kernel).c_str());
        std::printf("    largest difference       %.4f\n", largest_difference(by_dot, by_kernel));
        std::printf("    softmax(q.k - |k|^2/2)   %s  (differs from the kernel by %.4f)\n",
                    tensor_str(corrected).c_str(), largest_difference(corrected, by_kernel));
    }
}

static const char* USAGE =
    "usage: 15_1_Kernel_Smoothing [--help]\n\n"
    "Normalised Gaussian-kernel weights exp(-|q-k|^2/2) against softmax(q.k), for keys\n"
    "of equal and of different lengths (book section 15.1.3).\n"
    "It takes no options.\n";

int main(int argc, char** argv) {
    Options(argc, argv, USAGE).done();
    std::vector<std::vector<float>> queries = {{1.0f, 0.0f}, {0.0f, 0.0f}, {-1.0f, 0.0f}, {0.5f, 1.0f}};

    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // The table of section 15.1.1: both keys of length 1.
    Matrix equal_keys(ENTRIES, D, {
         1.0f, 0.0f,  // k1
        -1.0f, 0.0f,  // k2
    });
    // clang-format on
    compare("Keys of equal length", equal_keys, queries);

    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // The second key twice as long: the kernel now favours the shorter key.
    Matrix unequal_keys(ENTRIES, D, {
         1.0f, 0.0f,  // k1
        -2.0f, 0.0f,  // k2
    });
    // clang-format on
    std::printf("\n");
    compare("Keys of different lengths", unequal_keys, queries);
    return 0;
}
