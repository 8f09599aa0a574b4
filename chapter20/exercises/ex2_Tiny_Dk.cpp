// ex2_Tiny_Dk.cpp: with d_k = 1, every query prefers the largest key or the smallest.
// Book section: 20.9 (exercise 2)
// Exercise: 20.2
//
// With one number per query and per key, query i's score for key j is q_i * k_j.
// Softmax keeps order, so a row's weights rise with k_j when q_i > 0, fall
// when q_i < 0, and are uniform when q_i = 0: only the two extreme keys can
// ever be a query's favourite.
//
// You write:
//   Matrix one_number_weights(const std::vector<float>& queries, const std::vector<float>& keys);
//     attention weights with d_k = 1: (queries.size() x keys.size()), row i
//     the softmax over j of the scores queries[i] * keys[j]. Use softmax from
//     matrix.hpp, which subtracts the row's largest score before exp: the
//     grader's products reach the hundreds, where exp of a raw score overflows
//     (a softmax of your own must subtract the largest too).
//   Trend trend(const std::vector<float>& w);
//     RISING if every entry of w is larger than the one before, FALLING if
//     every entry is smaller, FLAT if all are equal, MIXED otherwise (a w of
//     one entry is RISING, as every entry after the first is larger).
// The grader calls both on random one-number queries and keys of random
// lengths, and checks that every row rises (q > 0) or falls (q < 0) strictly
// with the key; main prints the lesson.
#include <cstdio>
#include <string>
#include <vector>

#include "attention109.hpp"

constexpr int D_K1 = 1;  // the query and key size under study

enum Trend { RISING, FALLING, FLAT, MIXED };
static const char* const TREND_NAMES[] = {"rising", "falling", "flat", "mixed"};

// Attention weights when each query and each key is a single number.
static Matrix one_number_weights(const std::vector<float>& queries, const std::vector<float>& keys) {
    // BEGIN SOLUTION
    Matrix weights(int(queries.size()), int(keys.size()));  // (queries x keys)
    for (int i = 0; i < weights.rows; i++) {
        for (int j = 0; j < weights.cols; j++) weights(i, j) = queries[i] * keys[j];
        softmax(weights.row(i), weights.cols);
    }
    return weights;
    // STUB: return Matrix(int(queries.size()), int(keys.size()));  // zeros, so that main still runs
    // END SOLUTION
}

// How a row's weights move along the keys taken smallest first.
static Trend trend(const std::vector<float>& w) {
    // BEGIN SOLUTION
    bool up = true, down = true, same = true;
    for (size_t j = 1; j < w.size(); j++) {
        up = up && w[j] > w[j - 1];
        down = down && w[j] < w[j - 1];
        same = same && w[j] == w[j - 1];
    }
    return up ? RISING : down ? FALLING : same ? FLAT : MIXED;
    // STUB: (void)w;
    // STUB: return MIXED;
    // END SOLUTION
}

// The key a row weights most, or -1 when several tie for the top.
static int favourite(const float* w, int n) {
    int best = 0;
    for (int j = 1; j < n; j++)
        if (w[j] > w[best]) best = j;
    for (int j = 0; j < n; j++)
        if (j != best && w[j] == w[best]) return -1;
    return best;
}

int main() {
    Matrix X = sentence_109();
    const std::vector<std::string>& words = words_109();

    // Chosen, not trained, (1 x DM): the queries come out positive, negative and exactly zero.
    Matrix W_Q(D_K1, DM, {+0.20f, -1.00f, +0.00f, +1.00f});
    // (1 x DM): the key is each word's first component.
    Matrix W_K(D_K1, DM, {+1.00f, +0.00f, +0.00f, +0.00f});
    Attention a = self_attention(X, W_Q, W_K, WV_109());  // a.Q and a.K are (SL x 1)
    // One number per position: the queries and the keys as plain lists.
    const std::vector<float> queries = a.Q.data, keys = a.K.data;
    Matrix weights = one_number_weights(queries, keys);  // (SL x SL)

    // The keys in increasing order: every row is read along this order.
    std::vector<int> order;
    for (int j = 0; j < SL; j++) {
        size_t at = 0;
        while (at < order.size() && a.K(order[at], 0) < a.K(j, 0)) at++;
        order.insert(order.begin() + at, j);
    }
    int smallest = order.front(), largest = order.back();

    std::printf("d_k = %d: each query and each key is a single number\n\n", a.Q.cols);
    std::printf("Keys, smallest first:");
    for (int j : order) std::printf(" %s=%+.3f", words[j].c_str(), a.K(j, 0));
    std::printf("\n\nEach query's weights over the keys, smallest key first\n\n");

    int monotone = 0;
    std::vector<bool> row_favourite(SL, false);  // some query's favourite
    for (int i = 0; i < SL; i++) {
        std::vector<float> along;
        for (int j : order) along.push_back(weights(i, j));
        Trend t = trend(along);
        monotone += t != MIXED;
        int best = favourite(weights.row(i), SL);

        std::printf("  %-4s q=%+.3f  ", words[i].c_str(), a.Q(i, 0));
        for (int j : order) std::printf(" %s=%.3f", words[j].c_str(), weights(i, j));
        std::string prefers = best < 0           ? "no key (uniform)"
                              : best == largest  ? words[best] + " (the largest key)"
                              : best == smallest ? words[best] + " (the smallest key)"
                                                 : words[best] + " (a middle key)";
        std::printf("  %-7s  prefers %s\n", TREND_NAMES[t], prefers.c_str());
        if (best >= 0) row_favourite[best] = true;
    }
    std::printf("\nRows whose weights are monotone in the key: %d of %d\n", monotone, SL);
    int different = 0;
    for (bool f : row_favourite) different += f;
    std::printf("Different favourites among the %d queries: %d\n", SL, different);

    // Any query at all, not just these four: sweep q and record every favourite.
    constexpr int STEPS = 10;  // q = -5.0, -4.5, ..., +5.0
    constexpr float Q_STEP = 0.5f;
    std::vector<bool> ever_favourite(SL, false);
    for (int s = -STEPS; s <= STEPS; s++) {
        Matrix w = one_number_weights({s * Q_STEP}, keys);  // (1 x SL)
        int best = favourite(w.row(0), SL);
        if (best >= 0) ever_favourite[best] = true;
    }
    std::printf("Sweeping q from %+.1f to %+.1f in steps of %.1f, favourites:", -STEPS * Q_STEP, STEPS * Q_STEP,
                Q_STEP);
    for (int j : order)
        if (ever_favourite[j]) std::printf(" %s", words[j].c_str());
    std::printf("\nNever a favourite in the sweep:");
    for (int j : order)
        if (!ever_favourite[j]) std::printf(" %s", words[j].c_str());

    std::printf("\n\nSo with d_k = 1 every query ranks the keys in one fixed order or its\n");
    std::printf("reverse, and only the largest or the smallest key can win: a whole\n");
    std::printf("sequence has at most two different favourites. A pattern in which words\n");
    std::printf("look at different words, such as each word attending to the one before\n");
    std::printf("it, cannot be learned; that needs d_k > 1.\n");
    return 0;
}
