// tests/grader/20.4.cpp: the tests of exercise 20.4 (chapter20/exercises/ex4_Parameter_Count.cpp).
// The student writes attention_weights(d_model, d_k, d_v) and dense_weights(in, out, with_biases).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(attention_weights) X(dense_weights)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr int CASES = 8;         // random sizes per hidden test
constexpr int LARGEST = 100000;  // the lesson's own limit on every size

// The counts section 20.6 and the lesson print.
static void book_sizes(Test& t) {
    long long head = attention_weights(512, 64, 64), toy = attention_weights(DM, DK, DV);
    t.expect(head == 98304, "attention_weights(512, 64, 64) = %lld; section 20.6 gives 98,304", head);
    t.expect(toy == 36, "attention_weights(4, 3, 3) = %lld; listing 109 prints 36", toy);
    long long narrow = dense_weights(512, 64, false), wide = dense_weights(512, 512, false);
    t.expect(narrow == 32768, "dense_weights(512, 64, false) = %lld; want 512 x 64 = 32,768", narrow);
    t.expect(wide == 262144, "dense_weights(512, 512, false) = %lld; want 512 x 512 = 262,144", wide);
    long long narrow_biased = dense_weights(512, 64, true), wide_biased = dense_weights(512, 512, true);
    t.expect(narrow_biased == 32832, "dense_weights(512, 64, true) = %lld; want 32,768 weights + 64 biases",
             narrow_biased);
    t.expect(wide_biased == 262656, "dense_weights(512, 512, true) = %lld; want 262,144 weights + 512 biases",
             wide_biased);
}

static void hidden_sizes(Test& t) {
    for (int c = 1; c <= CASES; c++) {
        long long d_model = t.size(1, LARGEST), d_k = t.size(1, LARGEST), d_v = t.size(1, LARGEST);
        long long in = t.size(1, LARGEST), out = t.size(1, LARGEST);
        std::string name = "case" + std::to_string(c);
        t.number(name + ".attention_weights", double(attention_weights(d_model, d_k, d_v)));
        t.number(name + ".dense_weights", double(dense_weights(in, out, false)));
        t.number(name + ".dense_weights_with_biases", double(dense_weights(in, out, true)));
    }
    // The same extremes at every seed: every size at the lesson's limit (counts
    // past what an int holds) and every size 1, with d_k and d_v apart.
    t.number("largest.attention_weights", double(attention_weights(LARGEST, LARGEST, LARGEST - 1)));
    t.number("largest.dense_weights_with_biases", double(dense_weights(LARGEST, LARGEST, true)));
    t.number("smallest.attention_weights", double(attention_weights(1, 1, 2)));
    t.number("smallest.dense_weights", double(dense_weights(1, 1, false)));
}

// Each size counts as the formula says: one more d_model column adds a
// column to all three matrices, one more d_k adds a row to W_Q and to W_K,
// one more d_v a row to W_V.
static void formula_in_each_size(Test& t) {
    for (int c = 0; c < CASES; c++) {
        long long d_model = t.size(1, 1000), d_k = t.size(1, 1000), d_v = t.size(1, 1000);
        long long base = attention_weights(d_model, d_k, d_v);
        long long more_model = attention_weights(d_model + 1, d_k, d_v) - base;
        long long more_k = attention_weights(d_model, d_k + 1, d_v) - base;
        long long more_v = attention_weights(d_model, d_k, d_v + 1) - base;
        t.expect(more_model == 2 * d_k + d_v, "one more d_model adds %lld weights; want 2 * d_k + d_v = %lld",
                 more_model, 2 * d_k + d_v);
        t.expect(more_k == 2 * d_model, "one more d_k adds %lld weights; want %lld (a row of W_Q and a row of W_K)",
                 more_k, 2 * d_model);
        t.expect(more_v == d_model, "one more d_v adds %lld weights; want d_model = %lld (a row of W_V)", more_v,
                 d_model);
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("book_sizes", 1, book_sizes,
                             "count the entries of W_Q, W_K and W_V; section 20.6 states the sum"),
            grader::compare("hidden_sizes", 5, 0, hidden_sizes,
                            "every size must come from the arguments; a dense layer's biases are one per output"),
            grader::property("formula_in_each_size", 3, formula_in_each_size,
                             "W_Q and W_K each have d_k rows, W_V has d_v rows, all have d_model columns"),
            grader::printed_output(1, "run your program and compare its lines with the lesson's"),
        });
}
#endif
