// 15_2_Lab4_Model.cpp: Lab 4's attention model at its random starting values.
// Book section: 15.2.1
//
// Before training, the wear query matches every key about equally, so each
// of the ten positions gets about 0.1 of the weight, and the output layer
// gives red about 1/17 of the probability: nothing useful is learned yet.
#include <cstdio>

#include "colour_recall.hpp"

// The help text; %llu is DEFAULT_SEED.
static const char* USAGE =
    "usage: 15_2_Lab4_Model [--seed N]\n"
    "Lab 4's colour-recall model at its starting values (book section 15.2.1):\n"
    "the attention row at wear, p(red), the loss and the parameter shapes.\n"
    "  --seed N   starting values from seed N (default %llu, the start of Lab 5's run)\n";

int main(int argc, char** argv) {
    Options options(argc, argv, formatted(USAGE, (unsigned long long)DEFAULT_SEED).c_str());
    const uint64_t seed = uint64_t(options.integer("seed", long(DEFAULT_SEED), 0, 1000000000));
    options.done();

    const Params model = random_start(seed);
    std::printf(
        "Lab 4's model at its starting values: seed %llu, every entry normal with\n"
        "standard deviation %g, output bias zero.\n\n",
        (unsigned long long)seed, double(INIT_SCALE));

    std::printf("Vocabulary, %d tokens:\n ", VOCAB);
    for (int i = 0; i < VOCAB; i++) std::printf(" %s", vocabulary()[i].c_str());
    std::printf("\n\nParameters:\n");
    int total = 0;
    std::vector<const Matrix*> blocks = model.blocks();
    for (size_t b = 0; b < blocks.size(); b++) {
        std::printf("  %-10s  %2d x %-2d  %3d numbers\n", BLOCK_NAMES[b], blocks[b]->rows, blocks[b]->cols,
                    blocks[b]->rows * blocks[b]->cols);
        total += blocks[b]->rows * blocks[b]->cols;
    }
    std::printf("  %-10s           %3d numbers\n\n", "total", total);

    Example example = training_examples()[0];  // The team colour is red . So the players wear
    const int T = int(example.tokens.size());
    Forward f = forward(model, example.tokens);

    std::printf("Prefix: %s  (%d positions, target %s)\n\n", example.text.c_str(), T,
                vocabulary()[example.target].c_str());
    std::printf("Attention row at position %d (wear): score q%d.k_j/2, weight softmax\n", T, T);
    std::printf("  position  token     score  weight\n");
    float sum = 0.0f;
    for (int j = 0; j < T; j++) {
        std::printf("  %8d  %-8s %6.3f  %6.3f\n", j + 1, vocabulary()[example.tokens[j]].c_str(), f.scores(0, j),
                    f.weights(0, j));
        sum += f.weights(0, j);
    }
    std::printf("  weights sum to %.3f; 1/%d = %.3f\n\n", sum, T, 1.0 / T);

    std::printf("Next-token probabilities from the output layer:\n");
    for (const char* colour : COLOURS) std::printf("  p(%s) = %.3f\n", colour, f.probs(0, token_id(colour)));
    std::printf("  1/%d = %.3f\n", VOCAB, 1.0 / VOCAB);
    std::printf("  most probable next token: %s\n\n", vocabulary()[argmax(f.probs)].c_str());
    std::printf("Loss -log p(red) = %.3f; ln %d = %.3f\n", cross_entropy(f.logits, example.target), VOCAB,
                log_d(double(VOCAB)));
    return 0;
}
