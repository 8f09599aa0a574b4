// tiny_4_Residual_Adds.cpp: "Keeping what was already there": a block adds to each
// letter's notebook instead of writing over it, and what those two adds keep.
// Book section: tiny.4
//
// The chapter's block ends in two adds: middle = notebooks + what attention
// wrote, and out = middle + what the small network wrote. So a letter's notebook
// leaves a block as three parts added up: the notebook that came in and the two
// writes. For each block and letter of the sentence, the trained model's
// notebook going out is split into those parts, with how much of it each is.
// Then one add at a time is taken out (the block passes on only what it wrote),
// and the model's loss on a slice of the validation text and a line it writes
// show what the kept notebook was for.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "maths.hpp"            // log_f, our own log: the same digits everywhere
#include "matrix.hpp"           // dot, Rng
#include "tiny_model.hpp"       // forward with its Adds, multiply_forward, loss_sum, sample_next
#include "tiny_model_path.hpp"  // model_option
#include "tiny_reading.hpp"     // Reading, SENTENCE, shown

// The first 4 windows of 64 letters of the validation text, the last 10% of
// tinyshakespeare.txt, which tiny_train never trains on: it starts at character
// 1,003,854 (90% of the 1,115,394), and each window's last letter has its next
// one, so 4 * 64 + 1 characters. Written out here, so the lesson needs only the
// checkpoint. tests/reference/tiny_reference.py checks it against the file.
constexpr int VALIDATION_WINDOWS = 4;
const char VALIDATION[] =
    "?\n\nGREMIO:\nGood morrow, neighbour Baptista.\n\nBAPTISTA:\nGood morrow, neighbour Gremio.\n"
    "God save you, gentlemen!\n\nPETRUCHIO:\nAnd you, good sir! Pray, have you not a daughter\n"
    "Call'd Katharina, fair and virtuous?\n\nBAPTISTA:\nI have a daughter, sir, called Kathar";
static_assert(sizeof VALIDATION == VALIDATION_WINDOWS * SEATS + 2, "the windows' letters, the last one's next, a 0");

// The line each model writes: tiny_generate's prompt, temperature and seed, so
// that with both adds it is the start of tiny_generate's own text.
const char* const PROMPT = "ROMEO:";
constexpr int LINE_LETTERS = 34;  // letters after the prompt: a line of 40 characters
constexpr float TEMPERATURE = 0.8f;
constexpr uint64_t SEED = 1;

// ---------------------------------------------------------------------------
// The three parts of a notebook going out of a block

// For one block and letter: the notebook that came in, what attention wrote
// (found · write) and what the network wrote (fired · network_write). They add up to
// the block's out, with the float rounding of the adds.
struct Parts {
    float came_in[WIDTH], attention[WIDTH], network[WIDTH], out[WIDTH];
};

// The writes are made again from the tape's found and fired, as block_forward makes them.
static Parts parts_of(const Tape& tape, const BlockKnobs& knob, int b, int t) {
    const BlockTape& block = tape.block[b];
    Parts p = {};
    std::copy(block.notebooks + t * WIDTH, block.notebooks + (t + 1) * WIDTH, p.came_in);
    multiply_forward(p.attention, block.found + t * WIDTH, knob.write, 1, WIDTH, WIDTH);
    multiply_forward(p.network, block.fired + t * HIDDEN, knob.network_write, 1, HIDDEN, WIDTH);
    std::copy(block.out + t * WIDTH, block.out + (t + 1) * WIDTH, p.out);
    return p;
}

static float size_of(const float* v) { return std::sqrt(dot(v, v, WIDTH)); }

// How much of the notebook going out a part is: its length along that notebook,
// part · out / (out · out). Since out is the sum of the three parts, their shares
// add up to 100%, which their sizes do not (parts can point partly against one
// another); a part pointing against the others gets a negative share.
static float share_of(const float* part, const float* out) { return dot(part, out, WIDTH) / dot(out, out, WIDTH); }

// For each letter, each block's three shares, then the size of its notebook going out.
static void print_shares(const Reading& reading, const std::string& text) {
    const Knobs knob = knobs(reading.model);
    std::printf("         block 1                             block 2\n");
    std::printf("   t     came in attention network   size    came in attention network   size\n");
    for (int t = 0; t < reading.T; t++) {
        std::printf("  %2d %c ", t, shown(text[t]));
        for (int b = 0; b < BLOCKS; b++) {
            const Parts p = parts_of(reading.tape, knob.block[b], b, t);
            std::printf("%s%6.1f%% %8.1f%% %6.1f%% %6.2f", b == 0 ? "  " : "    ", 100.0 * share_of(p.came_in, p.out),
                        100.0 * share_of(p.attention, p.out), 100.0 * share_of(p.network, p.out), size_of(p.out));
        }
        std::printf("\n");
    }
}

// Each block's shares and sizes, averaged over the letters.
static void print_block_means(const Reading& reading) {
    const Knobs knob = knobs(reading.model);
    for (int b = 0; b < BLOCKS; b++) {
        double share[3] = {}, size[4] = {};
        for (int t = 0; t < reading.T; t++) {
            const Parts p = parts_of(reading.tape, knob.block[b], b, t);
            const float* part[4] = {p.came_in, p.attention, p.network, p.out};
            for (int i = 0; i < 3; i++) share[i] += share_of(part[i], p.out);
            for (int i = 0; i < 4; i++) size[i] += size_of(part[i]);
        }
        const double T = reading.T;
        std::printf("  block %d: came in %.1f%%, attention %.1f%%, network %.1f%%; sizes %.2f + %.2f + %.2f -> %.2f\n",
                    b + 1, 100.0 * share[0] / T, 100.0 * share[1] / T, 100.0 * share[2] / T, size[0] / T, size[1] / T,
                    size[2] / T, size[3] / T);
    }
}

// ---------------------------------------------------------------------------
// The model with an add taken out

// The mean next-letter loss, in nats per letter, over the validation windows,
// each read from a fresh start, as tiny_train's validation loss reads them.
static float validation_loss(const TinyModel& model, Adds adds, Tape& tape) {
    const std::vector<int> ids = encode(model, VALIDATION);
    float total = 0.0f;
    for (int w = 0; w < VALIDATION_WINDOWS; w++) {
        forward(model, ids.data() + w * SEATS, SEATS, tape, adds);
        total += loss_sum(tape, ids.data() + w * SEATS + 1);
    }
    return total / float(VALIDATION_WINDOWS * SEATS);
}

// The prompt and LINE_LETTERS letters after it, each drawn as tiny_generate
// draws it; the window is the whole line, which fits in the 64 seats.
static std::string line_written(const TinyModel& model, Adds adds, Tape& tape) {
    std::vector<int> ids = encode(model, PROMPT);
    Rng rng{SEED};
    for (int n = 0; n < LINE_LETTERS; n++) {
        const int T = int(ids.size());
        forward(model, ids.data(), T, tape, adds);
        ids.push_back(sample_next(tape.logits + (T - 1) * model.V, model.V, TEMPERATURE, rng));
    }
    std::string line;
    for (int id : ids) line += model.vocabulary[id] == '\n' ? '|' : model.vocabulary[id];
    return line;
}

static void print_without_adds(const TinyModel& model) {
    const struct {
        const char* name;
        Adds adds;
    } models[] = {{"both adds", {true, true}},
                  {"without the attention add", {false, true}},
                  {"without the network add", {true, false}}};
    Tape tape(model.V);
    std::printf("  %-26s %9s   %s\n", "", "loss", "a line it writes");
    std::printf("  %-26s %9.4f\n", "(every letter as likely)", log_f(float(model.V)));
    for (const auto& m : models)
        std::printf("  %-26s %9.4f   %s\n", m.name, validation_loss(model, m.adds, tape),
                    line_written(model, m.adds, tape).c_str());
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: tiny_4_Residual_Adds [options]\n\n"
    "How much of each letter's notebook going out of a block is the notebook that came\n"
    "in, and how much attention and the network wrote into it; then the trained model\n"
    "with either of a block's two adds taken out: its loss on the validation text and a\n"
    "line it writes.\n\n"
    "  --text TEXT    the sentence to read, 1 to 64 characters (default: the chapter's)\n"
    "  --model FILE   checkpoint (default chapter_tiny/shakespeare.tiny)\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const std::string text = options.text("text", SENTENCE);
    const std::string model_file = model_option(options);
    options.done();

    // The knobs, and the tape of one forward pass: each block's notebooks, its
    // level, lookups, found and middle, and its out, the next block's notebooks.
    const Reading reading(model_file, text);
    std::printf("Keeping what was already there: the trained model reading \"%s\" (%d characters)\n\n", text.c_str(),
                reading.T);
    std::printf(
        "A block writes into each letter's notebook with two adds, as the chapter's block does:\n"
        "  const middle = add(notebooks, multiply(found, attention.write));\n"
        "  const out = add(middle, multiply(fired, network.write));\n"
        "So the notebook going out is the one that came in plus two writes: attention's (what it\n"
        "found, times its write knobs) and the small network's (what fired, times its own).\n\n");

    std::printf(
        "How much of the notebook going out each part is (its length along it, part . out / out . out,\n"
        "so the three add up to 100%%; below 0 where a part points against the rest), and the size\n"
        "of the notebook going out:\n\n");
    print_shares(reading, text);
    std::printf("\nAveraged over the %d letters (the sizes: came in + attention + network -> going out):\n", reading.T);
    print_block_means(reading);

    std::printf(
        "\nTaking an add out: the block passes on only what was written, and the notebook that came in\n"
        "is lost. The loss is the next letter's, in nats per letter, over the first %d letters of the\n"
        "validation text (the last 10%% of tinyshakespeare.txt, which training never saw); each line\n"
        "is written from \"%s\" at temperature %.1f, seed %d, as tiny_generate writes (| is a new line).\n\n",
        VALIDATION_WINDOWS * SEATS, PROMPT, TEMPERATURE, int(SEED));
    print_without_adds(reading.model);
    return 0;
}
