// ex1_Soft_Lookup.cpp: exercise 15.1, the soft lookup of one query in a table.
// Book section: 15.1.2 (exercise 15.1)
// Exercise: 15.1
//
// Write two functions (their signatures are fixed; the grader calls them):
//
//   std::vector<float> lookup_weights(const std::vector<float>& query, const Matrix& keys);
//     keys holds one key per row, each with as many numbers as the query. Give
//     one weight per key: its score is the dot product of the query with that
//     key, and the weights are the softmax of the scores (exponentiate, divide
//     by the sum), so they are non-negative and add up to one. Scores can be in
//     the hundreds: subtract the largest score before exponentiating, which
//     leaves the weights unchanged and keeps exp from overflowing. (exp_f, from
//     common/maths.hpp, is the project's exp: the same bits on every platform.)
//
//   std::vector<float> mix_values(const std::vector<float>& weights, const Matrix& values);
//     values holds one value per row, in the same order as the keys. Return the
//     context vector z: each value row times its weight, added up (one number
//     per column of values).
//
// main then prints the book's example and the variants of section 15.1.2, using
// your two functions.
#include <cmath>
#include <cstdio>
#include <vector>

#include "maths.hpp"  // exp_f
#include "matrix.hpp"

#include <valarray>

typedef std::valarray<float> Arr;

// row r of a matrix, as a valarray
static Arr take_row(const Matrix& m, size_t r) {
    const Arr whole(m.data.data(), m.data.size());
    return whole[std::slice(r * size_t(m.cols), size_t(m.cols), 1)];
}

std::vector<float> mix_values(const std::vector<float>& weights, const Matrix& values) {
    Arr ctx(0.0f, size_t(values.cols));
    size_t r = 0;
    while (r < weights.size()) {
        ctx += weights[r] * take_row(values, r);
        ++r;
    }
    return std::vector<float>(std::begin(ctx), std::end(ctx));
}

std::vector<float> lookup_weights(const std::vector<float>& query, const Matrix& keys) {
    const size_t rows = size_t(keys.rows), width = size_t(keys.cols);
    if (!rows) return {};
    const Arr qv(query.data(), width);
    Arr e(rows);
    for (size_t r = 0; r < rows; ++r) e[r] = (take_row(keys, r) * qv).sum();
    const float m = e.max();
    e -= m;
    e = e.apply([](float v) { return exp_f(v); });
    const float z = e.sum();
    e /= z;
    return std::vector<float>(std::begin(e), std::end(e));
}

// ---------------------------------------------------------------------------
// The lesson: the book's table, then the text's three variants.

static void show(const char* title, const std::vector<float>& query, const Matrix& keys, const Matrix& values) {
    std::vector<float> weights = lookup_weights(query, keys);
    std::vector<float> z = mix_values(weights, values);
    std::printf("%s\n", title);
    std::printf("  weights  %s\n", tensor_str(weights).c_str());
    std::printf("  z        %s\n\n", tensor_str(z).c_str());
}

int main() {
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    Matrix keys(2, 2, {
         1.0f, 0.0f,  // k1
        -1.0f, 0.0f,  // k2
    });
    Matrix values(2, 2, {
        2.0f, 0.0f,  // v1
        0.0f, 4.0f,  // v2
    });
    // clang-format on
    show("q = (1, 0): most of the weight on the first entry (the book: 0.881 and 0.119, z = (1.762, 0.477))",
         {1.0f, 0.0f}, keys, values);
    show("q = (0, 0): both scores 0, equal weights, the plain average of the values", {0.0f, 0.0f}, keys, values);
    show("q = (-1, 0): the weights reverse", {-1.0f, 0.0f}, keys, values);
    Matrix new_values = values;  // (2 x 2): v1 becomes (3, 2), its key stays
    new_values(0, 0) = 3.0f;
    new_values(0, 1) = 2.0f;
    show("v1 = (3, 2), q = (1, 0): the same weights, a different z", {1.0f, 0.0f}, keys, new_values);
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    Matrix far_keys(2, 2, {
         300.0f, 0.0f,  // scores of 300 and -300: exp(300) alone would overflow a float
        -300.0f, 0.0f,
    });
    // clang-format on
    show("keys 300 times longer: all the weight on the first entry, and no overflow", {1.0f, 0.0f}, far_keys, values);
    return 0;
}
