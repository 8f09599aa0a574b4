// 15_1_Soft_Lookup.cpp: one query, a two-entry table of keys and values, and the soft lookup.
// Book section: 15.1.2
//
// The listing's calculation: a score for each key, softmax weights, and the
// weighted sum of the values (the context vector z). The first three lines are
// what the book's PyTorch listing prints; then the variants the text describes.
#include <cstdio>
#include <vector>

#include "cli.hpp"
#include "matrix.hpp"

constexpr int ENTRIES = 2;  // rows of the table
constexpr int D = 2;        // components of each query, key and value

struct Lookup {
    std::vector<float> scores;   // one per key
    std::vector<float> weights;  // non-negative, summing to one
    std::vector<float> z;        // the context vector
};

static Lookup soft_lookup(const std::vector<float>& query, const Matrix& keys, const Matrix& values) {
    Lookup out;
    // One dot product for each key: keys @ query.
    for (int j = 0; j < keys.rows; j++) out.scores.push_back(dot(keys.row(j), query.data(), D));

    // Softmax: exponentiate, then divide by the sum.
    float total = 0.0f;
    for (float s : out.scores) {
        out.weights.push_back(exp_f(s));
        total += out.weights.back();
    }
    for (float& a : out.weights) a /= total;

    // The contribution from each value, explicitly: z = a1 v1 + a2 v2.
    out.z.assign(D, 0.0f);
    for (int j = 0; j < values.rows; j++)
        for (int c = 0; c < D; c++) out.z[c] += out.weights[j] * values(j, c);
    return out;
}

static const char* yes_no(bool b) { return b ? "yes" : "no"; }

static void print_lookup(const Lookup& r) {
    std::printf("  scores   %s\n", tensor_str(r.scores).c_str());
    std::printf("  weights  %s\n", tensor_str(r.weights).c_str());
    std::printf("  z        %s\n", tensor_str(r.z).c_str());
}

static const char* USAGE =
    "usage: 15_1_Soft_Lookup [--help]\n\n"
    "One query looks up a two-entry table of keys and values (book section 15.1.2):\n"
    "scores, softmax weights and the context vector z, printed as PyTorch prints them,\n"
    "then the variants the text describes.\n"
    "It takes no options.\n";

int main(int argc, char** argv) {
    Options(argc, argv, USAGE).done();
    std::vector<float> query = {1.0f, 0.0f};
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    Matrix keys(ENTRIES, D, {
         1.0f, 0.0f,  // k1
        -1.0f, 0.0f,  // k2
    });
    Matrix values(ENTRIES, D, {
        2.0f, 0.0f,  // v1
        0.0f, 4.0f,  // v2
    });
    // clang-format on

    // print(scores), print(weights), print(z), as the listing does.
    Lookup book = soft_lookup(query, keys, values);
    print_tensor(book.scores);
    print_tensor(book.weights);
    print_tensor(book.z);

    std::printf("\nThe same numbers to three decimals, as the text quotes them:\n");
    std::printf("  s1 = %g, s2 = %g\n", book.scores[0], book.scores[1]);
    std::printf("  a1 = %.3f, a2 = %.3f\n", book.weights[0], book.weights[1]);
    std::printf("  z = (%.3f, %.3f)\n", book.z[0], book.z[1]);

    // The same combination as one vector-matrix product.
    Matrix weights(1, ENTRIES);  // (1 x ENTRIES): the weights as a row
    weights.data = book.weights;
    Matrix product = matmul(weights, values);  // (1 x D)
    std::printf("\nz = weights @ values    %s\n", tensor_str(product.data).c_str());
    std::printf("  equal to the explicit sum: %s\n", yes_no(product.data == book.z));

    // Variants from the text. A zero query scores every key 0.
    std::vector<float> zero_query = {0.0f, 0.0f};
    Lookup zero = soft_lookup(zero_query, keys, values);
    std::printf("\nq = (%g, %g): both scores zero, so equal weights and the plain average\n", zero_query[0],
                zero_query[1]);
    print_lookup(zero);
    bool average = true;
    for (int c = 0; c < D; c++) average = average && zero.z[c] == (values(0, c) + values(1, c)) / 2;
    std::printf("  a1 = %.3f, a2 = %.3f; z is the average of v1 and v2: %s\n", zero.weights[0], zero.weights[1],
                yes_no(average));

    std::vector<float> opposite_query = {-1.0f, 0.0f};
    Lookup opposite = soft_lookup(opposite_query, keys, values);
    std::printf("\nq = (%g, %g): the weights reverse, so v2 contributes more\n", opposite_query[0], opposite_query[1]);
    print_lookup(opposite);
    std::printf("  the weights of q = (%g, %g) in reverse order: %s\n", query[0], query[1],
                yes_no(opposite.weights[0] == book.weights[1] && opposite.weights[1] == book.weights[0]));

    // Change a value, keep its key.
    Matrix new_values = values;  // (ENTRIES x D)
    new_values(0, 0) = 3.0f;
    new_values(0, 1) = 2.0f;
    Lookup changed = soft_lookup(query, keys, new_values);
    std::printf("\nv1 = (%g, %g), q = (%g, %g): the same weights, a different z\n", new_values(0, 0), new_values(0, 1),
                query[0], query[1]);
    print_lookup(changed);
    std::printf("  scores and weights unchanged: %s; z changed: %s\n",
                yes_no(changed.scores == book.scores && changed.weights == book.weights), yes_no(changed.z != book.z));
    return 0;
}
