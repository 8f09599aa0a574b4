// 15_5_Causal_Mask.cpp: why a row must not see later positions, and the causal mask.
// Book section: 15.5
//
// The wear row of the recorded sentence, scored 0, 0 and 2 against players, wear
// and red: without a mask most of its weight goes to red, the token it is meant to
// predict. The mask M (0 where key j <= query i, -inf after) fixes that. Then three
// ways of masking, one of them the mistake the text warns about.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "matrix.hpp"

constexpr int T = 11;                    // positions in the recorded sentence
constexpr int LAST = 3;                  // the last three positions: players, wear, red
constexpr int WEAR = 9;                  // the row at position 10 (counting from 0 here)
constexpr float LARGE_NEGATIVE = -1e9f;  // what implementations often use for -inf (15.5.2)

static const char* SENTENCE[T] = {"The", "team", "colour", "is", "red", ".", "So", "the", "players", "wear", "red"};

// A mask entry as the book's table writes it.
static const char* mask_entry(float m) { return m == 0.0f ? "0" : std::isinf(m) && m < 0 ? "-inf" : "?"; }

// A weight to three decimals, without trailing zeros: 0.107, 0.5, 0, as the book's table.
static std::string short_decimal(float x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", x);
    std::string s = text;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

// softmax of one row of scores, returned as a new vector.
static std::vector<float> softmax_of(std::vector<float> scores) {
    softmax(scores.data(), int(scores.size()));
    return scores;
}

static void print_row(const char* label, const std::vector<float>& scores) {
    std::printf("%s\n", label);
    std::printf("  scores   %s\n", tensor_str(scores).c_str());
    std::printf("  weights  %s\n", tensor_str(softmax_of(scores)).c_str());
}

static const char* USAGE =
    "usage: 15_5_Causal_Mask [--help]\n\n"
    "The causal mask (book section 15.5): the wear row with and without it, the mask\n"
    "of the recorded sentence, and three ways of masking, one of them wrong.\n"
    "It takes no options.\n";

int main(int argc, char** argv) {
    Options(argc, argv, USAGE).done();
    // The wear row's scores against the keys at players, wear and red (a supposition of the text).
    std::vector<float> scores = {0.0f, 0.0f, 2.0f};
    std::vector<float> unmasked = softmax_of(scores);
    std::printf("The wear row, scores against players, wear and red, no mask\n");
    std::printf("  scores   %s\n", tensor_str(scores).c_str());
    std::printf("  weights  %s\n", tensor_str(unmasked).c_str());
    std::printf("  1/(2 + e^2) = %.3f on players, %.3f on wear; e^2/(2 + e^2) = %.3f on red\n", unmasked[0],
                unmasked[1], unmasked[2]);
    std::printf("  most of the weight is on red, the token this row predicts: %s\n",
                unmasked[2] > unmasked[0] + unmasked[1] ? "yes" : "no");

    // The causal mask of the whole sentence; its last three rows and columns as in the book.
    Matrix M = causal_mask(T);  // (T x T): row = query position, column = key position
    int first = T - LAST;       // 0-based position of players
    std::printf("\nThe mask for the last three positions (rows: queries, columns: keys)\n");
    std::printf("  %-12s", "Query / key");
    for (int j = first; j < T; j++) std::printf("%9s", SENTENCE[j]);
    std::printf("\n");
    for (int i = first; i < T; i++) {
        std::printf("  %-12s", SENTENCE[i]);
        for (int j = first; j < T; j++) std::printf("%9s", mask_entry(M(i, j)));
        std::printf("\n");
    }
    Matrix block(LAST, LAST);  // (LAST x LAST): the same entries, printed as PyTorch would
    for (int i = 0; i < LAST; i++)
        for (int j = 0; j < LAST; j++) block(i, j) = M(first + i, first + j);
    std::printf("As a tensor:\n%s\n", tensor_str(block).c_str());
    bool earlier_allowed = true;
    for (int i = first; i < T; i++)
        for (int j = 0; j < first; j++) earlier_allowed = earlier_allowed && M(i, j) == 0.0f;
    std::printf("The earlier %d columns (The ... the) are 0 in all three rows: %s\n", first,
                earlier_allowed ? "yes" : "no");

    // The wear row with the mask added: A = softmax(S + M), one row of it.
    std::vector<float> masked_scores;
    for (int j = 0; j < LAST; j++) masked_scores.push_back(scores[j] + M(WEAR, first + j));
    std::vector<float> masked = softmax_of(masked_scores);
    std::printf("\nThe wear row with the mask added\n");
    std::printf("  scores   %s\n", tensor_str(masked_scores).c_str());
    std::printf("  weights  %s\n", tensor_str(masked).c_str());
    std::printf("\n  %-12s", "Mask");
    for (int j = first; j < T; j++) std::printf("%9s", SENTENCE[j]);
    std::printf("\n  %-12s", "Without");
    for (float a : unmasked) std::printf("%9s", short_decimal(a).c_str());
    std::printf("\n  %-12s", "With");
    for (float a : masked) std::printf("%9s", short_decimal(a).c_str());
    std::printf("\n");

    // The whole recorded sentence: row i may use positions 1 .. i.
    std::printf("\nThe causal mask for the recorded sentence (row: query position, column: key position)\n");
    std::printf("  %-10s", "");
    for (int j = 0; j < T; j++) std::printf("%5d", j + 1);
    std::printf("\n");
    for (int i = 0; i < T; i++) {
        std::printf("  %2d %-7s", i + 1, SENTENCE[i]);
        for (int j = 0; j < T; j++) std::printf("%5s", mask_entry(M(i, j)));
        std::printf("\n");
    }

    // Three ways to mask red in the wear row. Only the last one is wrong.
    std::printf("\nThree ways to mask red in the wear row\n");
    std::vector<float> by_large = scores;
    by_large[LAST - 1] += LARGE_NEGATIVE;
    std::vector<float> by_zero = scores;
    by_zero[LAST - 1] = 0.0f;
    print_row("1. Add -inf (the mask above)", masked_scores);
    print_row("2. Add -1e9, a large finite negative number", by_large);
    std::printf("  the same weights as adding -inf: %s\n", softmax_of(by_large) == masked ? "yes" : "no");
    print_row("3. Set the score to 0 (the mistake)", by_zero);
    std::printf("  red still gets %.3f of the weight: e^0 = 1 counts in the softmax sum\n",
                softmax_of(by_zero)[LAST - 1]);
    return 0;
}
