// ex6_Self_Weights.cpp: which positions of listing 109 attend mostly to themselves?
// Book section: 20.9 (exercise 6)
//
// A position's self-weight is the diagonal entry of its row: how much of its
// attention it keeps for its own value. "Mostly" means more than half.
#include <cstdio>
#include <string>

#include "attention109.hpp"

constexpr float MOSTLY = 0.5f;  // more than half of a row's weight

int main() {
    Matrix X = sentence_109();
    const std::vector<std::string>& words = words_109();
    Attention result = self_attention(X, WQ_109(), WK_109(), WV_109());
    const Matrix& W = result.weights;  // (SL x SL)

    std::printf("Attention weights from listing 109, rows query, cols key\n\n");
    print_weights(W, words, words);

    std::printf("\nSelf-weight (the diagonal) and where each row looks most\n\n");
    std::printf("  %-6s  %-11s  %s\n", "word", "self-weight", "strongest");
    int largest = 0;
    std::string mostly_self;
    for (int i = 0; i < SL; i++) {
        int best = 0;
        for (int j = 1; j < SL; j++)
            if (W(i, j) > W(i, best)) best = j;
        std::printf("  %-6s  %-11.3f  %s (%.3f)\n", words[i].c_str(), W(i, i), words[best].c_str(),
                    W(i, best));
        if (W(i, i) > W(largest, largest)) largest = i;
        if (W(i, i) > MOSTLY) mostly_self += (mostly_self.empty() ? "\"" : ", \"") + words[i] + "\"";
    }

    std::printf("\nAttending mostly to itself (self-weight above %.1f): %s\n", MOSTLY,
                mostly_self.empty() ? "none" : mostly_self.c_str());
    std::printf("Largest self-weight: \"%s\" at %.3f\n", words[largest].c_str(), W(largest, largest));
    return 0;
}
