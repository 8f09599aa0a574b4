// tiny_2_No_Peeking.cpp: "No peeking": the causal mask, in the trained model reading the sentence.
// Book section: tiny.2
//
// The triangle of one head: each row a letter doing the reading, each column a
// letter being read, a mark whose size shows the weight. Nothing sits above the
// diagonal, because no letter reads ahead, and every row adds up to 100%: the
// program checks both. Then why positions matter: without the position table,
// shuffling the earlier letters leaves every letter's score as it was.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tiny_reading.hpp"

constexpr uint64_t SHUFFLE_SEED = 1;  // the one shuffle of "Why positions matter"

// ---------------------------------------------------------------------------
// The triangle in the terminal

static void print_triangle(const Tape& tape, const std::string& text, int b, int h, bool fancy) {
    std::fputs(fancy ? FANCY_MARKS_LEGEND : MARKS_LEGEND, stdout);
    std::printf("\n        ");
    for (int s = 0; s < tape.T; s++) std::putchar(shown(text[s]));
    std::printf("\n");
    for (int t = 0; t < tape.T; t++) {
        std::printf("  %2d %c  ", t, shown(text[t]));
        for (int s = 0; s <= t; s++) std::fputs(mark(weight(tape, b, h, t, s), fancy).c_str(), stdout);
        std::printf("\n");  // nothing above the diagonal: the row ends at t
    }
}

// --row: every weight of one row, with a bar, and what the row adds up to.
static void print_row(const Tape& tape, const std::string& text, int b, int h, int t) {
    const int biggest = biggest_read(tape, b, h, t), space = space_before_word(text, t);
    std::printf("Row %d, %s, reads:\n", t, quoted(text[t]).c_str());
    float total = 0.0f;
    for (int s = 0; s <= t; s++) {
        const float w = weight(tape, b, h, t, s);
        total += w;
        std::string bar(size_t(std::lround(w * 50)), '#');
        std::string note = s == biggest ? "   <- the largest" : "";
        if (s == space) note += note.empty() ? "   <- the space before its word" : ", the space before its word";
        std::string line = format_number("  %2.0f ", s) + quoted(text[s]) + format_number("  %5.1f%%  ", 100.0 * w) + bar + note;
        while (line.back() == ' ') line.pop_back();
        std::printf("%s\n", line.c_str());
    }
    std::printf("  the row adds up to %.1f%%\n", 100.0 * total);
}

// ---------------------------------------------------------------------------
// The checks: computed over every head, not assumed.

static void check_triangles(const Tape& tape) {
    float above = 0.0f, furthest = 0.0f;  // the largest weight above a diagonal; the largest |row sum - 1|
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            for (int t = 0; t < tape.T; t++) {
                float total = 0.0f;
                for (int s = 0; s < tape.T; s++) {
                    const float w = weight(tape, b, h, t, s);
                    if (s > t) above = std::fmax(above, std::fabs(w));
                    total += w;
                }
                furthest = std::fmax(furthest, std::fabs(total - 1.0f));
            }
    const float ROUNDING = 1e-5f;  // float sums of up to 64 weights
    std::printf("Checked over all %d heads and %d rows:\n", BLOCKS * HEADS, tape.T);
    std::printf("  nothing above the diagonal: %s\n", above == 0.0f ? "yes, every weight there is 0" : "NO");
    std::printf("  every row sums to 100%%: %s\n",
                furthest <= ROUNDING ? "yes, each within 0.001% (float rounding)" : "NO");
}

// ---------------------------------------------------------------------------
// Why positions matter. Letter t's scores in block 1, before and after a
// shuffle of the letters before it (t stays last). Without the position table
// each earlier letter keeps its score wherever it lands; with it, scores change.

struct ShuffleResult {
    float largest_change = 0.0f;  // over block 1's heads and the letters before t
    int changed = 0;              // letter-and-head pairs whose score changed at all
};

static ShuffleResult shuffle_scores(const TinyModel& model, const std::vector<int>& ids, const std::vector<int>& order) {
    const int T = int(ids.size()), t = T - 1;
    std::vector<int> shuffled(T);
    for (int s = 0; s < T; s++) shuffled[order[s]] = ids[s];  // letter s moves to seat order[s]
    Tape before(model.V), after(model.V);
    forward(model, ids.data(), T, before);
    forward(model, shuffled.data(), T, after);
    ShuffleResult r;
    for (int h = 0; h < HEADS; h++)
        for (int s = 0; s < t; s++) {
            float change = std::fabs(score(after, 0, h, t, order[s]) - score(before, 0, h, t, s));
            r.largest_change = std::fmax(r.largest_change, change);
            r.changed += change != 0.0f;
        }
    return r;
}

static void why_positions_matter(const TinyModel& model, const std::vector<int>& ids, const std::string& text) {
    const int T = int(ids.size()), t = T - 1;
    std::printf("Why positions matter\n");
    if (T < 3) {
        std::printf("  (needs a text of at least 3 letters, to have earlier letters to shuffle)\n");
        return;
    }
    // A shuffle of seats 0..t-1 (Fisher-Yates); letter t keeps seat t.
    std::vector<int> order(T);
    for (int s = 0; s < T; s++) order[s] = s;
    Rng rng(SHUFFLE_SEED);
    for (int s = t - 1; s > 0; s--) std::swap(order[s], order[rng.below(s + 1)]);
    std::string shuffled(T, ' ');
    for (int s = 0; s < T; s++) shuffled[order[s]] = text[s];
    std::printf("  Letter %d, %s, scores the %d letters before it in block 1. Shuffle those letters:\n", t,
                quoted(text[t]).c_str(), t);
    std::printf("    \"%s\"\n    \"%s\"\n", text.c_str(), shuffled.c_str());

    TinyModel without = model;  // the same knobs, with the position table left out
    Knobs k = knobs(without);
    for (int i = 0; i < SEATS * WIDTH; i++) k.position[i] = 0.0f;
    ShuffleResult no_seats = shuffle_scores(without, ids, order), seats = shuffle_scores(model, ids, order);
    std::printf("  Without the position table, %d of the %d scores (%d letters x %d heads) changed; the largest change is %g.\n",
                no_seats.changed, t * HEADS, t, HEADS, no_seats.largest_change);
    std::printf("  With the position table, %d of the %d scores changed; the largest change is %.3f.\n", seats.changed,
                t * HEADS, seats.largest_change);
    if (no_seats.changed == 0 && seats.changed > 0)
        std::printf("  So attention alone cannot tell which letter came first; the seats tell it.\n");
    else
        std::printf("  Unexpected: without the seats the scores should not change, and with them they should.\n");
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: tiny_2_No_Peeking [options]\n\n"
    "\"No peeking\" (Paying attention): the trained tiny model reads a sentence, and one\n"
    "head's weights are drawn as a triangle: row t is letter t reading, column s is\n"
    "letter s being read; nothing is above the diagonal. Checks that, and that every\n"
    "row adds up to 100%, over all 8 heads; then shows why positions matter.\n"
    "Blocks and heads are counted from 1, letters from 0.\n\n"
    "  --text TEXT       the sentence (default: the chapter's, 54 characters); at most 64\n"
    "  --block B         1 or 2 (with --head; default: the head whose largest weight most\n"
    "  --head H          often falls on the space before the word), H from 1 to 4\n"
    "  --row N           the letter whose weights are printed (default: the last)\n"
    "  --svg FILE        also draw the triangle, with that row's reads, as an SVG picture\n"
    "  --html FILE       also write a page: point at a row (or use the arrow keys) to read it\n"
    "  --model FILE      the checkpoint (default chapter_tiny/shakespeare.tiny)\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const std::string text = options.text("text", SENTENCE);
    const int b = int(options.integer("block", 1, 1, BLOCKS)) - 1, h = int(options.integer("head", 1, 1, HEADS)) - 1;
    const bool chosen = options.given("block") || options.given("head");
    if (chosen && !(options.given("block") && options.given("head"))) fail("--block and --head go together; give both");
    const bool row_given = options.given("row");
    const long row_option = options.integer("row", 0, 0, SEATS - 1);
    const std::string model_file = options.text("model", MODEL_FILE);
    const PictureFiles pictures = picture_options(options);
    options.done();

    const Reading reading(model_file, text);
    const Tape& tape = reading.tape;
    const int T = reading.T, row = letter_option("row", row_given, row_option, T);

    std::printf("No peeking: the trained model reading \"%s\" (%d characters)\n\n", text.c_str(), T);
    int block = b, head = h;
    const std::vector<int> counted = after_word_start(text);
    auto space_hits = [&](int bb, int hh) { return space_before_word_count(tape, text, bb, hh); };
    if (!chosen) {
        best_head(space_hits, block, head);
        std::printf("%s, the head whose largest weight most often falls on the space before the\n"
                    "current word: at %d of the %zu letters after a word's first letter.\n\n",
                    head_name(block, head).c_str(), space_hits(block, head), counted.size());
    } else {
        std::printf("%s: its largest weight falls on the space before the current word at %d\n"
                    "of the %zu letters after a word's first letter.\n\n",
                    head_name(block, head).c_str(), space_hits(block, head), counted.size());
    }
    print_triangle(tape, text, block, head, fancy_output());
    std::printf("\n");
    print_row(tape, text, block, head, row);
    std::printf("\n");
    check_triangles(tape);
    std::printf("\n");
    why_positions_matter(reading.model, reading.ids, text);

    write_pictures(
        pictures, [&] { return triangle_svg(tape, text, block, head, row, false); },
        [&] {
            const std::string intro = "The tiny model's " + head_name(block, head) + " reading \"" + text +
                                      "\". Point at a row, or click the picture and use the up and down arrow keys, "
                                      "to see what that letter reads. Nothing is above the diagonal: no letter reads ahead.";
            return html_page("No peeking", intro, triangle_svg(tape, text, block, head, row, true), 'y', TRIANGLE_TOP,
                             T, row);
        });
    return 0;
}
