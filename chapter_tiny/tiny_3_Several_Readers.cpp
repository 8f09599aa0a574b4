// tiny_3_Several_Readers.cpp: "Several readers at once": where each of the 8 heads looks, and what
// training made them do.
// Book section: tiny.3
//
// Two blocks of four heads, each with its own knobs for queries, keys and
// values. For one letter, the top reads of every head, and each head's reads
// along the sentence. Then the chapter's statistics, computed for our model on
// the same sentence: which head reads the previous character, which reads the
// space before a word, how close the first block's heads read, and how far the
// second block's reach.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tiny_model_path.hpp"  // model_option
#include "tiny_pictures.hpp"    // picture_options, write_pictures
#include "tiny_reading.hpp"

constexpr int TOP = 3;  // reads listed per head

// ---------------------------------------------------------------------------
// Where each head looks from letter t

static void print_top_reads(const Tape& tape, const std::string& text, int t) {
    std::printf("Where each head looks from letter %d, '%c' (its %d largest weights):\n", t, shown(text[t]), TOP);
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++) {
            std::printf("  %s  ", head_name(b, h).c_str());
            for (int s : top_reads(tape, b, h, t, TOP))
                std::printf("  %2d '%c' %5.1f%%", s, shown(text[s]), 100.0 * weight(tape, b, h, t, s));
            std::printf("\n");
        }
}

// The terminal's arcs: under the sentence, a mark under each letter t reads.
static void print_lanes(const Tape& tape, const std::string& text, int t, bool fancy) {
    std::printf("\nThe same reads along the sentence, a mark under each letter read:\n");
    std::fputs(fancy ? FANCY_MARKS_LEGEND : MARKS_LEGEND, stdout);
    std::printf("\n                  ");
    for (char c : text) std::putchar(shown(c));
    std::printf("\n");
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++) {
            std::printf("  %s  ", head_name(b, h).c_str());
            for (int s = 0; s <= t; s++) std::fputs(mark(weight(tape, b, h, t, s), fancy), stdout);
            std::printf("\n");
        }
    std::printf("                  %*s^ letter %d reads; nothing after it\n", t, "", t);
}

// ---------------------------------------------------------------------------
// The chapter's statistics, for every head

static void print_statistics(const Tape& tape, const std::string& text) {
    const int T = tape.T;
    const int counted = int(after_word_start(text).size());
    std::printf("\nThe chapter's statistics for our model, over this sentence's %d letters after the first:\n", T - 1);
    std::printf(
        "  previous:  at how many of the %d letters that have one the largest weight is on the previous character\n",
        T - 1);
    std::printf(
        "  space:     at how many of the %d letters after a word's first letter (in a word with a space before\n"
        "             it) the largest weight is on that space\n",
        counted);
    std::printf("  near:      the average share on the letter itself and the two before it\n");
    std::printf("  look-back: the average distance back, in letters (the weights times t - s)\n\n");
    std::printf("  head              previous     space    near   look-back\n");
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            std::printf("  %s    %2d of %2d  %2d of %2d  %5.1f%%   %5.2f\n", head_name(b, h).c_str(),
                        previous_character_count(tape, b, h), T - 1, space_before_word_count(tape, text, b, h), counted,
                        100.0 * near_share(tape, b, h), look_back(tape, b, h));
}

// The smallest and largest of a statistic over one block's heads.
template <typename Statistic>
static void block_range(int b, Statistic statistic, float& lo, float& hi) {
    lo = hi = statistic(b, 0);
    for (int h = 1; h < HEADS; h++) lo = std::fmin(lo, statistic(b, h)), hi = std::fmax(hi, statistic(b, h));
}

// The chapter's sentences, with our numbers and our heads in the chapter's roles.
static void print_in_the_chapters_words(const Tape& tape, const std::string& text) {
    const int T = tape.T, counted = int(after_word_start(text).size());
    auto previous = [&](int b, int h) { return previous_character_count(tape, b, h); };
    auto space = [&](int b, int h) { return space_before_word_count(tape, text, b, h); };
    auto near = [&](int b, int h) { return near_share(tape, b, h); };
    auto back = [&](int b, int h) { return look_back(tape, b, h); };
    int pb, ph, sb, sh;
    best_head(previous, pb, ph);
    best_head(space, sb, sh);
    std::printf("\nIn the chapter's words, with our model's numbers:\n");
    std::printf(
        "  Our previous-character reader is %s: it gives its largest weight\n"
        "  to the previous character at %d of the %d positions that have one.\n",
        head_in_words(pb, ph).c_str(), previous(pb, ph), T - 1);
    std::printf(
        "  Our reader of the space before a word is %s. At %d of the %d positions\n"
        "  after a word's first letter, with a space before the word, it gives that space its largest weight.\n",
        head_in_words(sb, sh).c_str(), space(sb, sh), counted);
    float near_lo, near_hi, back_lo, back_hi, first_back_lo, first_back_hi;
    block_range(0, near, near_lo, near_hi);
    block_range(1, back, back_lo, back_hi);
    block_range(0, back, first_back_lo, first_back_hi);
    std::printf(
        "  The heads of the first block put %.0f%% to %.0f%% of their weight on the letter itself and\n"
        "  the two before it.",
        100.0 * near_lo, 100.0 * near_hi);
    std::printf(" The heads of the second block read %.1f to %.1f letters back on average\n", back_lo, back_hi);
    std::printf("  (the first block's: %.1f to %.1f), so the second block %s.\n", first_back_lo, first_back_hi,
                back_lo > first_back_hi   ? "reaches further, every head of it"
                : back_hi > first_back_hi ? "reaches further at most, though not with every head"
                                          : "does not reach further here");
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: tiny_3_Several_Readers [options]\n\n"
    "\"Several readers at once\" (Paying attention): the trained tiny model's 2 blocks of\n"
    "4 heads read a sentence. For one letter, each head's largest weights and its\n"
    "reads along the sentence; then the chapter's statistics for every head, and the\n"
    "chapter's sentences with our numbers. Blocks and heads are counted from 1,\n"
    "letters from 0.\n\n"
    "  --text TEXT       the sentence (default: the chapter's, 54 characters); at most 64\n"
    "  --at N            the letter whose reads are shown (default: the last)\n"
    "  --svg FILE        also draw each head's arcs from that letter as an SVG picture\n"
    "  --html FILE       also write a page: point at a letter (or use the arrow keys) to\n"
    "                    see where each head looks from it\n"
    "  --model FILE      the checkpoint (default chapter_tiny/shakespeare.tiny)\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const std::string text = options.text("text", SENTENCE);
    const bool at_given = options.given("at");
    const long at_option = options.integer("at", 0, 0, SEATS - 1);
    const std::string model_file = model_option(options);
    const PictureFiles pictures = picture_options(options);
    options.done();

    const Reading reading(model_file, text);
    const Tape& tape = reading.tape;
    const int T = reading.T, at = letter_option("at", at_given, at_option, T);

    std::printf("Several readers: the trained model's %d heads reading \"%s\" (%d characters)\n\n", BLOCKS * HEADS,
                text.c_str(), T);
    print_top_reads(tape, text, at);
    print_lanes(tape, text, at, fancy_output());
    if (T >= 2) {
        print_statistics(tape, text);
        print_in_the_chapters_words(tape, text);
    }

    write_pictures(
        pictures, [&] { return arcs_svg(tape, text, at, false); },
        [&] {
            const std::string intro = formatted(
                "The tiny model's eight heads reading \"%s\". Point at a letter (on a "
                "phone, tap it), or click the picture and use the left and right arrow "
                "keys, to see where each head looks from it: each arc runs back to a "
                "letter it reads, darker for more.",
                text.c_str());
            return html_page("Several readers at once", intro, arcs_svg(tape, text, at, true), 'x', ARCS_LEFT, T, at);
        });
    return 0;
}
