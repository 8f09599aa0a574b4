// tiny_generate.cpp: writes Shakespeare-like text with the tiny trained model, one
// letter at a time, or scores a text: how surprised the model is by each next letter.
//
//   tiny_generate --prompt "ROMEO:" --length 200 --temperature 0.8 --seed 1
//   tiny_generate --score "The bag didn't fit in the car because it was too small"
#include <cstdio>
#include <string>
#include <vector>

#include "tiny_checkpoint.hpp"       // load_model, encode
#include "tiny_model_fast.hpp"       // forward_fast, forward_last_fast: the same bits as forward, faster
#include "tiny_model_path.hpp"       // model_option
#include "tiny_writing_options.hpp"  // writing_options: --prompt, --length, --temperature, --seed

static void generate(const TinyModel& model, const std::string& prompt, long length, float temperature, Rng& rng) {
    std::vector<int> ids = encode(model, prompt);
    Tape tape(model.V);
    std::fputs(prompt.c_str(), stdout);
    for (long n = 0; n < length; n++) {
        const int T = std::min(int(ids.size()), SEATS);                  // the model reads at most the last 64 letters
        forward_last_fast(model, ids.data() + ids.size() - T, T, tape);  // only the last letter's logits are needed
        ids.push_back(sample_next(tape.logits + (tape.T - 1) * tape.V, tape.V, temperature, rng));
        std::fputc(model.vocabulary[ids.back()], stdout);
    }
    std::fputc('\n', stdout);
}

// A letter as the --each table shows it: in quotes, newlines and tabs escaped.
static std::string shown(char c) {
    if (c == '\n') return "'\\n'";
    if (c == '\t') return "'\\t'";
    return "'" + std::string(1, c) + "'";
}

// The mean of -log p(next letter) over every letter after the first, each
// predicted from the up to 64 letters before it.
static void score(const TinyModel& model, const std::string& text, bool each) {
    std::vector<int> ids = encode(model, text);
    const int n = int(ids.size());
    Tape tape(model.V);
    std::printf("text: \"%s\" (%d characters)\n", text.c_str(), n);
    if (each) std::printf("   t  after  next  p(next)        -log p\n");
    // One pass over the first 64 letters predicts letters 1 to 64; each later
    // letter gets its own pass over the 64 before it.
    forward_fast(model, ids.data(), std::min(n - 1, SEATS), tape);
    double total = 0.0;
    for (int j = 1; j < n; j++) {
        int row = j - 1;
        if (j > SEATS) {
            forward_fast(model, ids.data() + j - SEATS, SEATS, tape);
            row = SEATS - 1;
        }
        const float loss = next_letter_loss(tape, row, ids[j]);
        total += loss;
        if (each)
            std::printf("%4d  %-5s  %-4s  %.6e  %9.6f\n", j, shown(text[j - 1]).c_str(), shown(text[j]).c_str(),
                        tape.probs[row * model.V + ids[j]], loss);
    }
    std::printf("mean next-character cross-entropy: %.6f nats per character over %d predictions\n", total / (n - 1),
                n - 1);
}

static const char* USAGE =
    "usage: tiny_generate [options]\n"
    "Writes text with the tiny Shakespeare model, one letter at a time, each drawn\n"
    "from the model's probabilities for the next letter given the last 64.\n"
    "\n" WRITING_OPTIONS_USAGE  // --prompt, --length, --temperature, --seed
    "  --score TEXT        instead of writing, print the mean cross-entropy of each next\n"
    "                      letter of TEXT given the ones before it, in nats per character\n"
    "  --each              with --score, also print every letter's probability\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const std::string path = model_option(options);
    const Writing writing = writing_options(options);
    const bool scoring = options.given("score");
    const std::string text = options.text("score", "");
    const bool each = options.flag("each");
    options.done();
    if (each && !scoring) fail("--each goes with --score TEXT");
    if (scoring && (options.given("prompt") || options.given("length") || options.given("temperature")))
        fail("--score does not write text, so it takes no --prompt, --length or --temperature");

    TinyModel model = load_model(path);
    if (scoring) {
        if (text.size() < 2) fail("--score needs a text of at least 2 characters");
        score(model, text, each);
    } else {
        require_prompt(writing);
        Rng rng{writing.seed};
        generate(model, writing.prompt, writing.length, writing.temperature, rng);
    }
    return 0;
}
