// 15_3_Learned_Weights.cpp: what the trained weights do at wear.
// Book section: 15.3
//
// The trained matrices are not readable directly, but what they do at each
// position is: the score of the wear query against every key, the weight
// that gives, and what that position's value adds to each colour's score.
#include <cmath>
#include <cstdio>

#include "colour_recall.hpp"

// One prefix's row at wear, position by position. Returns whether the colour's
// position has the largest weight and raises the stated colour's score the most.
static bool explain(const Params& p, const Example& e) {
    const int T = int(e.tokens.size());
    Forward f = forward(p, e.tokens);
    std::printf("Prefix: %s\n", e.text.c_str());
    std::printf("  position  token     score (q%d.k_j/2)  weight    adds to:  red     blue    black\n", T);
    float other_low = 1e30f, other_high = -1e30f, other_weight = 0.0f;
    int target_k = 0;
    while (token_id(COLOURS[target_k]) != e.target) target_k++;
    bool colour_first = argmax(f.weights) == COLOUR_POS;
    for (int j = 0; j < T; j++) {
        std::printf("  %8d  %-8s  %16.1f  %6.3f         ", j + 1, vocabulary()[e.tokens[j]].c_str(), f.scores(0, j),
                    f.weights(0, j));
        float adds[3];
        for (int k = 0; k < 3; k++) {
            adds[k] = adds_to_score(p, f, j, token_id(COLOURS[k]));                      // weight x value x W_out
            std::printf(" %+7.1f", std::fabs(adds[k]) < 0.05f ? 0.0 : double(adds[k]));  // no "-0.0"
        }
        if (j == COLOUR_POS)
            for (int k = 0; k < 3; k++)
                colour_first = colour_first && (token_id(COLOURS[k]) == e.target || adds[k] < adds[target_k]);
        std::printf("\n");
        if (j != COLOUR_POS) {
            other_low = std::fmin(other_low, f.scores(0, j));
            other_high = std::fmax(other_high, f.scores(0, j));
            other_weight = std::fmax(other_weight, f.weights(0, j));
        }
    }
    std::printf("  colour scores (logits), the column sums plus the bias:  ");
    for (const char* colour : COLOURS) std::printf(" %+7.1f", f.logits(0, token_id(colour)));
    std::printf("\n  every other position: scores %.1f to %.1f, weight at most %.3f\n", other_low, other_high,
                other_weight);
    std::printf("  p(%s) = %.3f\n\n", vocabulary()[e.target].c_str(), f.probs(0, e.target));
    return colour_first;
}

// The help text; %llu is DEFAULT_SEED and %g INIT_SCALE.
static const char* USAGE =
    "usage: 15_3_Learned_Weights\n"
    "Trains Lab 4's model as 15_2_Lab5_Training does by default (seed %llu at scale %g, lr 0.03,\n"
    "200 updates), then shows the row at wear for the red and black prefixes (book section 15.3).\n";

int main(int argc, char** argv) {
    Options options(argc, argv, formatted(USAGE, (unsigned long long)DEFAULT_SEED, double(INIT_SCALE)).c_str());
    options.done();

    const Params trained = trained_model();
    std::printf("After 200 updates at lr 0.03 from seed %llu (starting scale %g), the row at wear (position 10):\n\n",
                (unsigned long long)DEFAULT_SEED, double(INIT_SCALE));
    const std::vector<Example> train = training_examples();
    bool red = explain(trained, train[0]);    // The team colour is red . So the players wear
    bool black = explain(trained, train[6]);  // The team colour is black . So the players wear
    if (red && black)
        std::printf(
            "In both, only the key at the stated colour matches the wear query, and that\n"
            "position's value raises the stated colour's score the most.\n");
    else std::printf("Here the colour's position does not dominate in both prefixes.\n");
    return 0;
}
