// tiny_2_No_Peeking.cpp: "No peeking": the causal mask, in the trained model reading the sentence.
// Book section: tiny.2
//
// Where the mask is: tiny_model.hpp's attend_forward, run here on the first
// four letters, scores letter t against letters 0 to t and stops at the diagonal.
// Then the triangle of one head over the whole sentence: each row a letter doing
// the reading, each column a letter being read, a mark whose size shows the
// weight. Nothing sits above the diagonal, because no letter reads ahead, and
// every row adds up to 100%: the program checks both. Then why positions matter:
// without the position table, shuffling the earlier letters leaves every
// letter's score as it was.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tiny_model_path.hpp"  // model_option
#include "tiny_pictures.hpp"    // picture_options, write_pictures
#include "tiny_reading.hpp"     // Reading, head_option, triangle_svg, triangle_page

constexpr uint64_t SHUFFLE_SEED = 1;  // the one shuffle of "Why positions matter"

// ---------------------------------------------------------------------------
// Where the mask is. attend_forward, the chapter's attend, makes each letter t's
// row of weights in a loop that stops at t, and writes 0 after it:
//
//     for (int s = 0; s <= t; s++) {  // the score of letter s, for s = 0 .. t only
//     ...
//     for (int s = t + 1; s < T; s++) row[s] = 0.0f;  // no peeking: nothing above the diagonal

constexpr int FIRST = 4;  // the letters of the small case

// attend_forward on the first FIRST letters' lookups alone, in block b; head h's rows.
static void print_mask(const Tape& tape, const std::string& text, int b, int h) {
    const int T = std::min(FIRST, tape.T);
    std::vector<float> found(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);  // (T,W), (HEADS,T,T)
    attend_forward(found.data(), weights.data(), tape.block[b].lookups, T);       // lookups' first T rows (T,3W)
    std::printf(
        "Where the mask is: attend_forward (tiny_model.hpp) scores letter t against letters s = 0 to t,\n"
        "`for (int s = 0; s <= t; s++)`, and writes 0 after t. Run on the first %d letters alone:\n\n",
        T);
    std::printf("              ");
    for (int s = 0; s < T; s++) std::printf("%8c", shown(text[s]));
    std::printf("\n");
    bool same = true;  // each weight as the whole text's tape has it
    for (int t = 0; t < T; t++) {
        std::printf("  letter %d %c  ", t, shown(text[t]));
        for (int s = 0; s < T; s++) {
            const float w = weights[(h * T + t) * T + s];
            if (s <= t) std::printf("  %5.1f%%", 100.0 * w);
            else std::printf("%8s", "0");
            same = same && w == weight(tape, b, h, t, s);
        }
        std::printf("\n");
    }
    std::printf("\nEach row stops at the diagonal: letter %d reads itself and the %d before it, none after.\n", T - 1,
                T - 1);
    std::printf("The same weights, bit for bit, as the first %d rows of the triangle, read with the whole text: %s\n\n",
                T, same ? "yes" : "NO");
}

// ---------------------------------------------------------------------------
// The triangle in the terminal

static void print_triangle(const Tape& tape, const std::string& text, int b, int h, bool fancy) {
    std::fputs(fancy ? FANCY_MARKS_LEGEND : MARKS_LEGEND, stdout);
    std::printf("\n        ");
    for (int s = 0; s < tape.T; s++) std::putchar(shown(text[s]));
    std::printf("\n");
    for (int t = 0; t < tape.T; t++) {
        std::printf("  %2d %c  ", t, shown(text[t]));
        for (int s = 0; s <= t; s++) std::fputs(mark(weight(tape, b, h, t, s), fancy), stdout);
        std::printf("\n");  // nothing above the diagonal: the row ends at t
    }
}

// --row: every weight of one row, with a bar, and what the row adds up to.
static void print_row(const Tape& tape, const std::string& text, int b, int h, int t) {
    const int biggest = biggest_read(tape, b, h, t), space = space_before_word(text, t);
    std::printf("Row %d, '%c', reads:\n", t, shown(text[t]));
    float total = 0.0f;
    for (int s = 0; s <= t; s++) {
        const float w = weight(tape, b, h, t, s);
        total += w;
        const std::string bar(size_t(std::lround(w * 50)), '#');
        std::string note = s == biggest ? "   <- the largest" : "";
        if (s == space) note += note.empty() ? "   <- the space before its word" : ", the space before its word";
        std::string line =
            formatted("  %2d '%c'  %5.1f%%  %s%s", s, shown(text[s]), 100.0 * w, bar.c_str(), note.c_str());
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

// No peeking, as behaviour: give every letter after letter c another letter,
// read again, and compare each head's rows 0..c (which must not move) and the rows after c.
static void check_no_peeking(const TinyModel& model, const std::vector<int>& ids, const Tape& tape) {
    const int T = tape.T, c = (T - 1) / 2;
    if (T < 2) return;
    std::vector<int> changed = ids;
    for (int s = c + 1; s < T; s++) changed[s] = (ids[s] + 1) % model.V;
    Tape again(model.V);
    forward(model, changed.data(), T, again);
    int moved_before = 0, moved_after = 0;  // rows whose weights differ, up to c and after it
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            for (int t = 0; t < T; t++) {
                bool moved = false;
                for (int s = 0; s <= t; s++) moved = moved || weight(again, b, h, t, s) != weight(tape, b, h, t, s);
                (t <= c ? moved_before : moved_after) += moved;
            }
    std::printf("  changing every letter after letter %d moves no weight in rows 0 to %d: %s\n", c, c,
                moved_before == 0 ? "yes" : "NO");
    std::printf("  (while %d of the %d rows after it, over the %d heads, moved)\n", moved_after,
                (T - 1 - c) * BLOCKS * HEADS, BLOCKS * HEADS);
}

// ---------------------------------------------------------------------------
// Why positions matter. Letter t's scores in block 1, before and after a
// shuffle of the letters before it (t stays last). Without the position table
// each earlier letter keeps its score wherever it lands; with it, scores change.

// The last letter's score for each letter s in block 1: (HEADS x T), one row per head.
static Matrix last_letter_scores(const TinyModel& model, const std::vector<int>& ids) {
    const int T = int(ids.size());
    Tape tape(model.V);
    forward(model, ids.data(), T, tape);
    Matrix scores(HEADS, T);  // (HEADS x T)
    for (int h = 0; h < HEADS; h++)
        for (int s = 0; s < T; s++) scores(h, s) = score(tape, 0, h, T - 1, s);
    return scores;
}

struct ShuffleResult {
    Matrix before, after;         // last_letter_scores of the sentence and of the shuffle
    float largest_change = 0.0f;  // over block 1's heads and the letters before the last
    int changed = 0;              // letter-and-head pairs whose score changed at all
};

// order[s] is the seat letter s moves to.
static ShuffleResult shuffle_scores(const TinyModel& model, const std::vector<int>& ids,
                                    const std::vector<int>& order) {
    const int T = int(ids.size());
    std::vector<int> shuffled(T);
    for (int s = 0; s < T; s++) shuffled[order[s]] = ids[s];
    ShuffleResult r{last_letter_scores(model, ids), last_letter_scores(model, shuffled)};
    for (int h = 0; h < HEADS; h++)
        for (int s = 0; s < T - 1; s++) {
            const float change = std::fabs(r.after(h, order[s]) - r.before(h, s));
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
    std::printf("  Letter %d, '%c', scores the %d letters before it in block 1. Shuffle those letters:\n", t,
                shown(text[t]), t);
    std::printf("    \"%s\"\n    \"%s\"\n", text.c_str(), shuffled.c_str());

    TinyModel without = model;  // the same knobs, with the position table left out
    Knobs k = knobs(without);
    for (int i = 0; i < SEATS * WIDTH; i++) k.position[i] = 0.0f;
    const ShuffleResult no_seats = shuffle_scores(without, ids, order), seats = shuffle_scores(model, ids, order);

    std::printf("  Block 1 head 1's score for four of them, before and after the shuffle:\n");
    std::printf("    letter  seat        without the position table   with it\n");
    for (int s : {0, t / 3, 2 * t / 3, t - 1})
        std::printf("    %2d '%c'  %2d -> %2d     %7.3f -> %7.3f          %7.3f -> %7.3f\n", s, shown(text[s]), s,
                    order[s], no_seats.before(0, s), no_seats.after(0, order[s]), seats.before(0, s),
                    seats.after(0, order[s]));
    std::printf(
        "  Without the position table, %d of the %d scores (%d letters x %d heads) changed; the largest change is "
        "%g.\n",
        no_seats.changed, t * HEADS, t, HEADS, no_seats.largest_change);
    std::printf("  With the position table, %d of the %d scores changed; the largest change is %.3f.\n", seats.changed,
                t * HEADS, seats.largest_change);
    if (no_seats.changed == 0 && seats.changed > 0)
        std::printf("  So attention alone cannot tell which letter came first; the seats tell it.\n");
    else std::printf("  Unexpected: without the seats the scores should not change, and with them they should.\n");
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
    const HeadOption chosen = head_option(options);
    const bool row_given = options.given("row");
    const long row_option = options.integer("row", 0, 0, SEATS - 1);
    const std::string model_file = model_option(options);
    const PictureFiles pictures = picture_options(options);
    options.done();

    const Reading reading(model_file, text);
    const Tape& tape = reading.tape;
    const int T = reading.T, row = letter_option("row", row_given, row_option, T);

    std::printf("No peeking: the trained model reading \"%s\" (%d characters)\n\n", text.c_str(), T);
    int block = chosen.block, head = chosen.head;
    const std::vector<int> counted = after_word_start(text);
    auto space_hits = [&](int bb, int hh) { return space_before_word_count(tape, text, bb, hh); };
    if (!chosen.given) {
        best_head(space_hits, block, head);
        std::printf(
            "%s, the head whose largest weight most often falls on the space before the\n"
            "current word: at %d of the %zu letters after a word's first letter.\n\n",
            head_name(block, head).c_str(), space_hits(block, head), counted.size());
    } else {
        std::printf(
            "%s: its largest weight falls on the space before the current word at %d\n"
            "of the %zu letters after a word's first letter.\n\n",
            head_name(block, head).c_str(), space_hits(block, head), counted.size());
    }
    print_mask(tape, text, block, head);
    print_triangle(tape, text, block, head, fancy_output());
    std::printf("\n");
    print_row(tape, text, block, head, row);
    std::printf("\n");
    check_triangles(tape);
    check_no_peeking(reading.model, reading.ids, tape);
    std::printf("\n");
    why_positions_matter(reading.model, reading.ids, text);

    write_pictures(
        pictures, [&] { return triangle_svg(tape, text, block, head, row, false); },
        [&] { return triangle_page(tape, text, block, head, row); });
    return 0;
}
