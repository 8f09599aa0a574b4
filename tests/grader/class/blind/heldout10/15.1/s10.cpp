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

#define KEY(i) keys.row(i)

// exp of each entry minus a shift, returning their total
static float shifted_exp(std::vector<float>& s, float shift) {
    float total = 0;
    size_t i = 0;
    while (i < s.size()) {
        float e = exp_f(s[i] - shift);
        s[i] = e;
        total += e;
        i++;
    }
    return total;
}

std::vector<float> mix_values(const std::vector<float>& weights, const Matrix& values) {
    std::vector<float> ctx(values.cols, 0.0f);
    for (int r = 0; r < values.rows; r++) {
        const float wr = weights[r];
        for (int c = 0; c < values.cols; c++) ctx[c] += wr * values(r, c);
    }
    return ctx;
}

std::vector<float> lookup_weights(const std::vector<float>& query, const Matrix& keys) {
    std::vector<float> s(keys.rows);
    for (int r = 0; r < keys.rows; r++) s[r] = dot(KEY(r), query.data(), keys.cols);
    if (s.size() == 0) return s;
    // subtract a score first, exp would overflow otherwise
    const float total = shifted_exp(s, s.front());
    for (float& v : s) v = v / total;
    return s;
}
#undef KEY

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
