// tests/grader/20.6.cpp: the tests of exercise 20.6 (chapter20/exercises/ex6_Self_Weights.cpp).
// The student writes strongest(weights, i), mostly_self(weights, mostly) and largest_self_weight(weights).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(strongest) X(mostly_self) X(largest_self_weight)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr int CASES = 8;  // random weight matrices per hidden test

// A random (n x n) weight matrix: each row a softmax of random scores, the
// diagonal raised by a random amount so that some rows keep most for themselves.
static Matrix random_weights(Test& t) {
    int n = t.size(1, 8);
    Matrix scores = t.matrix(n, n, -2.0f, 2.0f);
    for (int i = 0; i < n; i++) scores(i, i) += t.uniform(0.0f, 4.0f);
    return softmax_rows(scores);
}

// The same with exact ties, where the statement's rules decide: in every row
// a second column equal to the row's largest weight, a second position whose
// self-weight equals the largest one, and a threshold equal to one self-weight
// (which is then not "more than" it).
static Matrix tied_weights(Test& t, float& mostly) {
    Matrix W = random_weights(t);
    while (W.rows < 2) W = random_weights(t);
    int n = W.rows;
    for (int i = 0; i < n; i++) {
        int best = 0;
        for (int j = 1; j < n; j++)
            if (W(i, j) > W(i, best)) best = j;
        int other = (best + t.size(1, n - 1)) % n;  // any column but best
        W(i, other) = W(i, best);
    }
    int largest = 0;
    for (int i = 1; i < n; i++)
        if (W(i, i) > W(largest, largest)) largest = i;
    int twin = (largest + t.size(1, n - 1)) % n;  // any position but largest
    W(twin, twin) = W(largest, largest);
    int at = t.size(0, n - 1);
    mostly = W(at, at);
    return W;
}

// Case c of the hidden tests: odd cases plain, even ones tied.
static Matrix hidden_weights(Test& t, int c, float& mostly) {
    if (c % 2 == 0) return tied_weights(t, mostly);
    mostly = t.uniform(0.3f, 0.7f);
    return random_weights(t);
}
static Matrix book_weights() { return self_attention(sentence_109(), WQ_109(), WK_109(), WV_109()).weights; }

// Everything the three functions say about one matrix, as whole numbers.
static void report(Test& t, const std::string& name, const Matrix& W, float mostly) {
    std::vector<int> best;
    for (int i = 0; i < W.rows; i++) best.push_back(strongest(W, i));
    t.numbers(name + ".strongest", best);
    t.numbers(name + ".mostly_self", mostly_self(W, mostly));
    t.numbers(name + ".largest_self_weight", std::vector<int>{largest_self_weight(W)});
}

static void book_input(Test& t) { report(t, "listing109", book_weights(), MOSTLY); }

static void hidden_inputs(Test& t) {
    for (int c = 1; c <= CASES; c++) {
        float mostly = 0;
        Matrix W = hidden_weights(t, c, mostly);
        report(t, "case" + std::to_string(c), W, mostly);
    }
    // The same ties at every seed: rows tied for their largest weight, two
    // positions tied for the largest self-weight, a self-weight equal to mostly,
    // and a uniform matrix (every answer is the first position, none is mostly self).
    report(t, "fixed_ties", Matrix(3, 3, {0.5f, 0.5f, 0.0f, 0.25f, 0.5f, 0.25f, 0.3f, 0.3f, 0.4f}), 0.4f);
    Matrix uniform(4, 4);
    for (float& w : uniform.data) w = 0.25f;
    report(t, "fixed_uniform", uniform, 0.25f);
}

// What each answer means, checked against the matrix itself.
static void answers_fit_the_matrix(Test& t) {
    for (int c = 0; c <= CASES; c++) {
        float mostly = MOSTLY;
        Matrix W = c == 0 ? book_weights() : hidden_weights(t, c, mostly);
        int n = W.rows;
        for (int i = 0; i < n; i++) {
            int b = strongest(W, i);
            t.expect(b >= 0 && b < n, "strongest(weights, %d) = %d is not a column of a %d x %d matrix", i, b, n, n);
            for (int j = 0; j < n; j++)
                t.expect(j < b ? W(i, j) < W(i, b) : W(i, j) <= W(i, b),
                         "strongest(weights, %d) = %d (%.4f), but weights(%d, %d) = %.4f is %s", i, b, double(W(i, b)),
                         i, j, double(W(i, j)), j < b ? "as large and comes first" : "larger");
        }
        std::vector<int> selves = mostly_self(W, mostly);
        size_t next = 0;
        for (int i = 0; i < n; i++) {
            bool listed = next < selves.size() && selves[next] == i;
            t.expect(listed == (W(i, i) > mostly), "position %d has self-weight %.4f and mostly = %.2f, but it is %s",
                     i, double(W(i, i)), double(mostly), listed ? "listed" : "not listed (in increasing order)");
            next += listed;
        }
        t.expect(next == selves.size(),
                 "mostly_self lists %zu positions, not all of them in increasing order from 0 to %d", selves.size(),
                 n - 1);
        int largest = largest_self_weight(W);
        t.expect(largest >= 0 && largest < n, "largest_self_weight = %d is not a position of %d", largest, n);
        for (int i = 0; i < n; i++)
            t.expect(i < largest ? W(i, i) < W(largest, largest) : W(i, i) <= W(largest, largest),
                     "largest_self_weight = %d (%.4f), but position %d has %.4f%s", largest,
                     double(W(largest, largest)), i, double(W(i, i)), i < largest ? " and comes first" : "");
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare(
                "book_input", 1, 0, book_input,
                "a self-weight is the diagonal entry weights(i, i); a row's strongest key is its largest entry"),
            grader::compare("hidden_inputs", 4, 0, hidden_inputs,
                            "random sizes, thresholds and exact ties: use weights.rows and the `mostly` you are given; "
                            "of equal weights keep the first, and a self-weight equal to mostly is not more than it"),
            grader::property("answers_fit_the_matrix", 4, answers_fit_the_matrix,
                             "row i is query i: read along a row (weights(i, j) for every j), not down a column"),
            grader::printed_output(1, "run your program and compare its lines with the lesson's"),
        });
}
#endif
