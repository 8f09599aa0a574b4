// chapter_tiny/tiny_writing_options.hpp: the options of the programs that write
// text with the tiny model, tiny_generate and tiny_5_Kept_Keys: the same words
// and defaults in both, so that the same command line writes the same letters.
#pragma once

#include <cstdint>
#include <string>

#include "cli.hpp"  // Options, fail

// Their lines of a usage text (a macro, so that a program's USAGE is one string).
#define WRITING_OPTIONS_USAGE                                                        \
    "  --model FILE        checkpoint (default chapter_tiny/shakespeare.tiny)\n"     \
    "  --prompt TEXT       the text to continue (default \"ROMEO:\")\n"              \
    "  --length N          letters to write after the prompt (default 200)\n"        \
    "  --temperature X     below 1 picks likely letters more often, above 1 less;\n" \
    "                      0 always picks the most likely (default 0.8)\n"           \
    "  --seed N            seed of the random draws (default 1)\n"

// What to write: the text to continue, how many letters after it, how boldly
// each is drawn, and the seed of the draws.
struct Writing {
    std::string prompt;
    long length;
    float temperature;
    uint64_t seed;
};

// --prompt, --length, --temperature and --seed (--model: tiny_model_path.hpp's model_option).
inline Writing writing_options(Options& options) {
    Writing writing;
    writing.prompt = options.text("prompt", "ROMEO:");
    writing.length = options.integer("length", 200, 0, 1000000);
    writing.temperature = float(options.number("temperature", 0.8, 0.0, 100.0));
    writing.seed = uint64_t(options.integer("seed", 1, 0, 2147483647));
    return writing;
}

// A prompt is needed: the first letter is drawn from what follows its last letter.
inline void require_prompt(const Writing& writing) {
    if (writing.prompt.empty()) fail("--prompt needs at least one character");
}
