// ex4_Temperature.cpp: exercise tiny.4, drawing the next letter at a temperature.
// Book section: tiny.3 (exercise tiny.4)
// Exercise: tiny.4
//
// Write two functions (their signatures are fixed; the grader calls them):
//
//   std::vector<float> next_letter_probabilities(const float* logits, int V, float temperature);
//     The model's V scores (logits) for the next letter, as probabilities at a
//     temperature above 0: softmax of each logit divided by the temperature.
//     Below 1 the likely letters get likelier; above 1 the letters even out.
//     At a low temperature logit / temperature reaches the hundreds, where exp
//     overflows a float: subtract the largest before exp (matrix.hpp's softmax
//     does).
//
//   int sample_next(const float* logits, int V, float temperature, Rng& rng);
//     One letter drawn from those probabilities, as tiny_generate draws it: one
//     u = rng.uniform() (uniform in [0, 1)), then the first letter whose running
//     sum of probabilities is above u (the last letter if rounding leaves u past
//     them all). Take every random number from rng, so a seed replays the draws.
//     At temperature 0, no draw: the letter with the largest logit (the first
//     such, on a tie).
//
// main then shows what the temperature does to a made-up next-letter distribution,
// using your two functions.
#include <cstdio>
#include <vector>

#include "../tiny_model.hpp"

// Your two functions go here. In the repository they are tiny_model.hpp's own,
// which this file then uses; in the handout the header only declares them.
// BEGIN SOLUTION: write next_letter_probabilities and sample_next (the statement above says how)
// STUB: std::vector<float> next_letter_probabilities(const float* logits, int V, float temperature) {
// STUB:     (void)logits, (void)temperature;
// STUB:     return std::vector<float>(size_t(V > 0 ? V : 0), 0.0f);
// STUB: }
// STUB:
// STUB: int sample_next(const float* logits, int V, float temperature, Rng& rng) {
// STUB:     (void)logits, (void)V, (void)temperature, (void)rng;
// STUB:     return 0;
// STUB: }
// END SOLUTION

// ---------------------------------------------------------------------------
// The lesson

constexpr int LETTERS = 6;
const char NAMES[LETTERS + 1] = "eaior_";  // '_' is a space
// Made up, in the manner of a model's scores for the letter after "th".
const float LOGITS[LETTERS] = {3.0f, 1.5f, 1.2f, 0.8f, 0.5f, -0.5f};
constexpr int DRAWS = 1000;

int main() {
    std::printf("Made-up scores for the letter after \"th\":");
    for (int v = 0; v < LETTERS; v++) std::printf("  %c %+.1f", NAMES[v], LOGITS[v]);
    std::printf("\n\n  temperature ");
    for (int v = 0; v < LETTERS; v++) std::printf("      %c", NAMES[v]);
    std::printf("   draws of %d with seed 1\n", DRAWS);
    for (float temperature : {0.5f, 1.0f, 2.0f}) {
        std::vector<float> p = next_letter_probabilities(LOGITS, LETTERS, temperature);
        std::printf("  %11.1f ", temperature);
        for (float x : p) std::printf(" %6.3f", x);
        Rng rng(1);
        int counts[LETTERS] = {};
        for (int n = 0; n < DRAWS; n++) {
            const int v = sample_next(LOGITS, LETTERS, temperature, rng);
            if (v >= 0 && v < LETTERS) counts[v]++;
        }
        std::printf("  ");
        for (int c : counts) std::printf(" %3d", c);
        std::printf("\n");
    }
    Rng rng(1);
    std::printf("\nAt temperature 0 every draw is the likeliest letter: '%c'\n",
                NAMES[sample_next(LOGITS, LETTERS, 0.0f, rng)]);
    return 0;
}
