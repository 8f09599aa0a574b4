// ex6_Self_Weights.cpp: which positions of listing 109 attend mostly to themselves?
// Book section: 20.9 (exercise 6)
// Exercise: 20.6
//
// A position's self-weight is the diagonal entry of its row: how much of its
// attention it keeps for its own value. "Mostly" means more than half.
//
// You write, for a square weight matrix (n x n; row = query, column = key):
//   int strongest(const Matrix& weights, int i);
//     the key that row i weights most (the first of equal ones).
//   std::vector<int> mostly_self(const Matrix& weights, float mostly);
//     the positions i, in increasing order, whose self-weight weights(i, i)
//     is more than `mostly`.
//   int largest_self_weight(const Matrix& weights);
//     the position with the largest self-weight (the first of equal ones).
// The grader calls them on random weight matrices of random sizes; main
// prints the lesson.
#include <cstdio>
#include <string>

#include "attention109.hpp"

constexpr float MOSTLY = 0.5f;  // more than half of a row's weight

static int strongest(const Matrix& weights, int i) {
    // BEGIN SOLUTION
    int best = 0;
    for (int j = 1; j < weights.cols; j++)
        if (weights(i, j) > weights(i, best)) best = j;
    return best;
    // STUB: (void)weights, (void)i;
    // STUB: return 0;
    // END SOLUTION
}

static std::vector<int> mostly_self(const Matrix& weights, float mostly) {
    // BEGIN SOLUTION
    std::vector<int> positions;
    for (int i = 0; i < weights.rows; i++)
        if (weights(i, i) > mostly) positions.push_back(i);
    return positions;
    // STUB: (void)weights, (void)mostly;
    // STUB: return {};
    // END SOLUTION
}

static int largest_self_weight(const Matrix& weights) {
    // BEGIN SOLUTION
    int largest = 0;
    for (int i = 1; i < weights.rows; i++)
        if (weights(i, i) > weights(largest, largest)) largest = i;
    return largest;
    // STUB: (void)weights;
    // STUB: return 0;
    // END SOLUTION
}

int main() {
    Matrix X = sentence_109();
    const std::vector<std::string>& words = words_109();
    Attention result = self_attention(X, WQ_109(), WK_109(), WV_109());
    const Matrix& W = result.weights;  // (SL x SL)

    std::printf("Attention weights from listing 109, rows query, cols key\n\n");
    print_weights(W, words, words);

    std::printf("\nSelf-weight (the diagonal) and where each row looks most\n\n");
    std::printf("  %-6s  %-11s  %s\n", "word", "self-weight", "strongest");
    for (int i = 0; i < SL; i++) {
        int best = strongest(W, i);
        std::printf("  %-6s  %-11.3f  %s (%.3f)\n", words[i].c_str(), W(i, i), words[best].c_str(), W(i, best));
    }
    std::string selves;
    for (int i : mostly_self(W, MOSTLY)) selves += (selves.empty() ? "\"" : ", \"") + words[i] + "\"";
    int largest = largest_self_weight(W);

    std::printf("\nAttending mostly to itself (self-weight above %.1f): %s\n", MOSTLY,
                selves.empty() ? "none" : selves.c_str());
    std::printf("Largest self-weight: \"%s\" at %.3f\n", words[largest].c_str(), W(largest, largest));
    return 0;
}
