// tests/grader/15.1.cpp: the tests of exercise 15.1 (chapter15/exercises/ex1_Soft_Lookup.cpp),
// lookup_weights and mix_values. Compare tests print numbers that the driver sets
// against the reference solution's; property tests check the student's alone.
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(lookup_weights) X(mix_values)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// The book's table of 15.1.1.
static void book_example(Test& t) {
    Matrix keys(2, 2, {1.0f, 0.0f, -1.0f, 0.0f}), values(2, 2, {2.0f, 0.0f, 0.0f, 4.0f});
    std::vector<float> weights = lookup_weights({1.0f, 0.0f}, keys);
    t.expect(weights.size() == 2, "lookup_weights gave %zu weights for 2 keys", weights.size());
    t.numbers("weights", weights);
    t.numbers("z", mix_values(weights, values));
}

// A random table: n entries, keys of d numbers, values of d_v numbers.
struct Table {
    std::vector<float> query;
    Matrix keys, values;
};
static Table random_table(Test& t, float spread = 1.0f) {
    const int n = t.size(1, 12), d = t.size(1, 6), d_v = t.size(1, 6);
    return {t.vector(d, -spread, spread), t.matrix(n, d, -1.0f, 1.0f), t.matrix(n, d_v, -3.0f, 3.0f)};
}

static void hidden_weights(Test& t) {
    for (int round = 0; round < 5; round++) {
        Table table = random_table(t, 2.0f);
        std::vector<float> weights = lookup_weights(table.query, table.keys);
        t.expect(int(weights.size()) == table.keys.rows, "lookup_weights gave %zu weights for %d keys", weights.size(),
                 table.keys.rows);
        t.numbers(("weights_" + std::to_string(round)).c_str(), weights);
    }
}

static void hidden_mix(Test& t) {
    for (int round = 0; round < 5; round++) {
        Table table = random_table(t);
        std::vector<float> weights = t.vector(table.keys.rows, 0.0f, 1.0f);  // any weights: the mix is linear
        std::vector<float> z = mix_values(weights, table.values);
        t.expect(int(z.size()) == table.values.cols, "mix_values gave %zu numbers for values of %d columns", z.size(),
                 table.values.cols);
        t.numbers(("z_" + std::to_string(round)).c_str(), z);
    }
}

// Scores in the hundreds: exp alone would overflow a float. The query is
// rescaled so that the largest score is 300 whatever the table drawn.
static void large_scores(Test& t) {
    for (int round = 0; round < 3; round++) {
        Table table = random_table(t);
        double top = -1e30, bottom = 1e30;
        for (int j = 0; j < table.keys.rows; j++) {
            double score = 0;
            for (int k = 0; k < table.keys.cols; k++) score += double(table.query[size_t(k)]) * table.keys(j, k);
            top = std::max(top, score), bottom = std::min(bottom, score);
        }
        const double factor = top >= -bottom ? 300.0 / std::max(top, 1e-3) : -300.0 / std::min(bottom, -1e-3);
        for (float& q : table.query) q = float(q * factor);
        std::vector<float> weights = lookup_weights(table.query, table.keys);
        for (float w : weights) t.expect(std::isfinite(w), "a weight is %g for scores in the hundreds", double(w));
        t.numbers(("weights_" + std::to_string(round)).c_str(), weights);
    }
    // The same worst cases at every seed: every score far below 0 (a largest
    // score started at 0 rather than at the first one leaves exp nothing but 0),
    // every score past exp's 88, and two keys tied for the largest score.
    const std::vector<float> query = {-100.0f, 50.0f};
    const Matrix below(3, 2, {1.5f, 0.0f, 2.0f, 0.5f, 1.2f, 0.0f});  // scores -150, -175, -120
    const Matrix above(3, 2, {-1.0f, 0.0f, -1.0f, 0.2f, -0.9f, 0.0f}),
        tied(3, 2, {-1.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f});
    t.numbers("all_below_minus_100", lookup_weights(query, below));
    t.numbers("all_above_88", lookup_weights(query, above));  // scores 100, 110, 90
    t.numbers("tied_largest", lookup_weights(query, tied));   // scores 100, 100, 0
}

// Shares of the student's own scores: non-negative, adding up to one, and
// ordered as the scores are (a key that scores more gets strictly more weight),
// which equal weights, or any answer that ignores the query, fail.
static void weights_are_shares(Test& t) {
    for (int round = 0; round < 20; round++) {
        Table table = random_table(t, 3.0f);
        std::vector<float> weights = lookup_weights(table.query, table.keys);
        t.expect(int(weights.size()) == table.keys.rows, "%zu weights for %d keys", weights.size(), table.keys.rows);
        double sum = 0.0;
        for (float w : weights) {
            t.expect(w >= 0.0f, "a weight is negative (%g)", double(w));
            sum += w;
        }
        t.expect(std::fabs(sum - 1.0) < 1e-5, "the weights add up to %.7f, not 1", sum);
        std::vector<double> score(weights.size(), 0.0);  // query . key, in double
        for (size_t j = 0; j < score.size(); j++)
            for (int c = 0; c < table.keys.cols; c++)
                score[j] += double(table.query[size_t(c)]) * table.keys(int(j), c);
        for (size_t j = 0; j < score.size(); j++)
            for (size_t k = 0; k < score.size(); k++)
                if (score[j] > score[k] + 1e-3 && score[j] - score[k] < 20.0)  // float can still tell them apart
                    t.expect(weights[j] > weights[k],
                             "key %zu scores %g and key %zu %g, but their weights are %g "
                             "and %g: a higher score must get more weight",
                             j, score[j], k, score[k], double(weights[j]), double(weights[k]));
    }
    // A zero query scores every key 0: equal weights.
    Table table = random_table(t);
    std::vector<float> zero(table.query.size(), 0.0f);
    std::vector<float> weights = lookup_weights(zero, table.keys);
    for (float w : weights)
        t.expect(std::fabs(w - 1.0f / float(weights.size())) < 1e-6f, "a zero query gives a weight of %g, not 1/%zu",
                 double(w), weights.size());
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare("book_example", 1, 1e-4, book_example,
                            "q = (1, 0) with the book's two keys should give about 0.881 and 0.119: score each key "
                            "with a dot product, then exponentiate and divide by the sum"),
            grader::compare("hidden_weights", 3, 1e-4, hidden_weights,
                            "one weight per key row: the softmax of query . key over all the rows"),
            grader::compare("hidden_mix", 2, 1e-4, hidden_mix,
                            "z has one number per column of values: add up each value row times its own weight"),
            grader::property("weights_are_shares", 1, weights_are_shares,
                             "weights are never negative, add up to one and follow the scores (a higher score, more "
                             "weight); a zero query gives every key the same"),
            grader::compare("large_scores", 2, 1e-4, large_scores,
                            "exp of a score above about 88 overflows a float: subtract the largest score first"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
