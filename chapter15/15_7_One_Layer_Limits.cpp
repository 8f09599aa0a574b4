// 15_7_One_Layer_Limits.cpp: two things one attention layer cannot do.
// Book section: 15.7
//
// In this model a position's key and value depend only on the token there,
// and the query at wear only on wear. So (a) swapping two colours moves their
// scores and weights with them and leaves the prediction as it was, and (b)
// what comes before wear cannot change how blue and red compare.
#include <cmath>
#include <cstdio>

#include "colour_recall.hpp"
#include "maths.hpp"  // exp_f

// Weight on each occurrence of the three colours, and the colour probabilities.
static void show_colours(const Params& p, const std::string& text, const std::vector<std::string>& words) {
    std::vector<int> tokens = tokenize(text, words);
    Forward f = forward(p, tokens);
    std::printf("  %s\n   ", text.c_str());
    for (int j = 0; j < int(tokens.size()); j++)
        for (const char* colour : COLOURS)
            if (words[tokens[j]] == colour)
                std::printf(" %s at %d: score %.3f, weight %.3f;", colour, j + 1, f.scores(0, j), f.weights(0, j));
    std::printf("\n    p(red) = %.3f, p(blue) = %.3f, p(black) = %.3f, predicted: %s\n", f.probs(0, token_id("red")),
                f.probs(0, token_id("blue")), f.probs(0, token_id("black")), words[argmax(f.probs)].c_str());
}

static const char* USAGE =
    "usage: 15_7_One_Layer_Limits\n"
    "The two limits of one attention layer in book section 15.7, computed:\n"
    "(a) two colours in one prefix, then swapped; (b) two sentences that differ before wear.\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    options.done();

    // (a) With the trained model: which colour came later makes no difference.
    const Params trained = trained_model();
    const std::string red_then_blue = "The team colour is red . The team colour is blue . So the players wear";
    const std::string blue_then_red = "The team colour is blue . The team colour is red . So the players wear";
    std::printf("(a) Two colours in one prefix, with the model after 200 updates at lr 0.03:\n\n");
    show_colours(trained, red_then_blue, vocabulary());
    show_colours(trained, blue_then_red, vocabulary());
    Forward first = forward(trained, tokenize(red_then_blue)), second = forward(trained, tokenize(blue_then_red));
    double difference = 0.0;
    for (int i = 0; i < VOCAB; i++)
        difference = std::fmax(difference, double(std::fabs(first.probs(0, i) - second.probs(0, i))));
    std::printf("\n  The same prediction in both orders: %s (largest difference over all %d tokens %.1e)\n",
                difference < 1e-6 ? "yes" : "NO", VOCAB, difference);
    std::printf(
        "  Each colour keeps its score and weight wherever it stands, so the model cannot\n"
        "  prefer the later colour.\n\n");

    // (b) A vocabulary with the words these sentences need, and any weights.
    std::vector<std::string> words = vocabulary();
    for (const char* w : {"teams", "referees", "officials"}) words.push_back(w);
    const int vocab = int(words.size());
    const std::string players = "The teams wear blue . The referees wear red . So the players wear";
    const std::string officials = "The teams wear blue . The referees wear red . So the officials wear";
    std::printf(
        "(b) Two subjects, with a model over %d tokens (the %d above, teams, referees, officials)\n"
        "    and random weights; three random starts:\n\n",
        vocab, VOCAB);
    std::printf("  seed  ending                 weight on blue  weight on red  blue/red  exp(s_blue - s_red)\n");
    double worst = 0.0;  // largest relative difference of blue/red between the two endings
    for (uint64_t seed = 1; seed <= 3; seed++) {
        const Params model = random_start(seed, vocab, 0.5f);
        double ratio[2];
        for (int k = 0; k < 2; k++) {
            Forward f = forward(model, tokenize(k == 0 ? players : officials, words));
            const int blue = 3, red = 8;  // positions of blue and red (0-based) in both sentences
            ratio[k] = f.weights(0, blue) / f.weights(0, red);
            std::printf("  %4llu  %-21s  %14.4f  %13.4f  %8.4f  %19.4f\n", (unsigned long long)seed,
                        k == 0 ? "...the players wear" : "...the officials wear", f.weights(0, blue), f.weights(0, red),
                        ratio[k], exp_f(f.scores(0, blue) - f.scores(0, red)));
        }
        worst = std::fmax(worst, std::fabs(ratio[0] - ratio[1]) / ratio[0]);
    }
    std::printf("\n  blue/red is the same for both endings: %s (largest relative difference %.1e)\n",
                worst < 1e-5 ? "yes" : "NO", worst);
    std::printf(
        "  The weights themselves change with the ending, but blue/red does not: it is\n"
        "  exp(s_blue - s_red), and the query at wear and the keys at blue and red are\n"
        "  the same in both sentences. That holds for every choice of weights, not only\n"
        "  these: preferring the team's colour for the players needs a query at wear that\n"
        "  also depends on players, which takes an earlier layer.\n");
    return 0;
}
