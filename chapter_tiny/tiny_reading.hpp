// chapter_tiny/tiny_reading.hpp: what the "Paying attention" demos share: the
// sentence, reading it with the trained model, what its heads look at, and the
// pictures (the triangle, the arcs, and their HTML page). What a demo that draws
// needs without the model (--svg, --html, the page itself) is tiny_pictures.hpp.
//
// Blocks and heads are counted from 1, as the chapter names them ("the second
// head of the first block"); letters are counted from 0, as the chapter's code
// counts t and s, and as the seats of the position table are numbered.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.hpp"
#include "matrix.hpp"
#include "plot.hpp"             // svg_open, add_text, add_rect, add_line, add_path, svg_colour, heat_colour
#include "tiny_checkpoint.hpp"  // load_model, encode
#include "tiny_model.hpp"
#include "tiny_model_path.hpp"  // MODEL_FILE
#include "tiny_pictures.hpp"    // PictureFiles, picture_options, write_pictures, html_document

// The chapter's sentence: 54 characters, without its final period.
const char* const SENTENCE = "The bag didn't fit in the car because it was too small";

// ===========================================================================
// Options every model demo takes

// A letter option (--row, --at) once the text's length T is known: 0..T-1, the last if not given.
inline int letter_option(const char* option, bool given, long value, int T) {
    if (!given) return T - 1;
    if (value >= T)
        fail(formatted("--%s must be from 0 to %d (the text has %d letters), got %ld", option, T - 1, T, value));
    return int(value);
}

// --block B and --head H (from 1), given together or not at all; block and head count from 0.
struct HeadOption {
    int block, head;
    bool given;
};
inline HeadOption head_option(Options& options) {
    const int b = int(options.integer("block", 1, 1, BLOCKS)) - 1, h = int(options.integer("head", 1, 1, HEADS)) - 1;
    const bool given = options.given("block") || options.given("head");
    if (given && !(options.given("block") && options.given("head"))) fail("--block and --head go together; give both");
    return {b, h, given};
}

// 1 <= n <= SEATS letters, each in the model's vocabulary (encode names any that is not).
inline std::vector<int> letters_of(const TinyModel& model, const std::string& text) {
    if (text.empty()) fail(formatted("--text is empty; give a sentence of 1 to %d characters", SEATS));
    if (text.size() > size_t(SEATS))
        fail(formatted("--text has %zu characters, more than the model's %d seats: the limit is %d characters",
                       text.size(), SEATS, SEATS));
    return encode(model, text);
}

// The model, the text as letter ids, and the tape of one forward pass over them.
struct Reading {
    TinyModel model;
    std::vector<int> ids;
    int T;
    Tape tape;
    Reading(const std::string& model_file, const std::string& text)
        : model(load_model(model_file)), ids(letters_of(model, text)), T(int(ids.size())), tape(model.V) {
        forward(model, ids.data(), T, tape);
    }
};

// A letter as the pictures and tables show it: a space as '_', so it can be seen.
inline char shown(char c) { return c == ' ' ? '_' : c; }

// "block 1 head 2" (b and h counted from 0 inside the programs).
inline std::string head_name(int b, int h) { return formatted("block %d head %d", b + 1, h + 1); }

// "the second head of the first block", as the chapter says it.
inline std::string head_in_words(int b, int h) {
    const char* const ordinal[] = {"first", "second", "third", "fourth"};
    return formatted("the %s head of the %s block", ordinal[h], ordinal[b]);
}

// ===========================================================================
// What one head reads

// How much letter t reads letter s, in block b's head h (0 when s > t).
inline float weight(const Tape& tape, int b, int h, int t, int s) { return attention_weight(tape, b, h, t, s); }

// The score before softmax: query of t . key of s, times 1/sqrt(SIZE), from the tape's lookups.
inline float score(const Tape& tape, int b, int h, int t, int s) {
    const float* lookups = tape.block[b].lookups;
    const float* query = lookups + t * 3 * WIDTH + h * SIZE;
    const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
    float dot = 0.0f;
    for (int i = 0; i < SIZE; i++) dot += query[i] * key[i];
    return dot * (1.0f / std::sqrt(float(SIZE)));
}

// The letter t reads most (the earliest, if two are equal).
inline int biggest_read(const Tape& tape, int b, int h, int t) {
    int best = 0;
    for (int s = 1; s <= t; s++)
        if (weight(tape, b, h, t, s) > weight(tape, b, h, t, best)) best = s;
    return best;
}

// The letters t reads, most first (the earlier first when two are equal): the top `count` of them.
inline std::vector<int> top_reads(const Tape& tape, int b, int h, int t, int count) {
    const int n = std::min(count, t + 1);
    std::vector<int> top(n);
    for (int s = 0; s <= t; s++) {  // s moves up past each kept letter it outweighs; the last kept may drop off
        int at = std::min(s, n);
        for (; at > 0 && weight(tape, b, h, t, s) > weight(tape, b, h, t, top[at - 1]); at--)
            if (at < n) top[at] = top[at - 1];
        if (at < n) top[at] = s;
    }
    return top;
}

// A mark for a weight in the terminal: bigger for more, as the chapter's squares are.
inline const char* mark(float w, bool fancy) {
    const float upper[] = {0.05f, 0.10f, 0.20f, 0.30f, 0.40f, 0.50f, 0.70f};
    const char* const plain[] = {".", ":", "-", "=", "+", "*", "#", "@"};
    const char* const block[] = {"\u00b7", "\u00b7", "\u2591", "\u2591", "\u2592", "\u2592", "\u2593", "\u2588"};
    int level = 0;
    while (level < 7 && w >= upper[level]) level++;
    return fancy ? block[level] : plain[level];
}
const char* const MARKS_LEGEND =
    "  marks:  . under 5%   : 5-10%   - 10-20%   = 20-30%   + 30-40%   * 40-50%   # 50-70%   @ 70% and more\n";
const char* const FANCY_MARKS_LEGEND =
    "  marks:  \u00b7 under 10%   \u2591 10-30%   \u2592 30-50%   \u2593 50-70%   \u2588 70% and more\n";

// ===========================================================================
// The chapter's statistics: each is computed over the sentence the tape read.

// The space before the word that letter t is in, or -1 if t starts its word
// or the word has no space before it.
inline int space_before_word(const std::string& text, int t) {
    if (text[t] == ' ') return -1;
    int start = t;
    while (start > 0 && text[start - 1] != ' ') start--;
    if (start == t || start == 0) return -1;
    return start - 1;
}

// The positions the chapter counts: a character after a word's first letter,
// in a word with a space before it (29 in the chapter's sentence).
inline std::vector<int> after_word_start(const std::string& text) {
    std::vector<int> positions;
    for (int t = 0; t < int(text.size()); t++)
        if (space_before_word(text, t) >= 0) positions.push_back(t);
    return positions;
}

// At how many positions t >= 1 the largest weight falls on the previous character.
inline int previous_character_count(const Tape& tape, int b, int h) {
    int count = 0;
    for (int t = 1; t < tape.T; t++) count += biggest_read(tape, b, h, t) == t - 1;
    return count;
}

// At how many of after_word_start's positions the largest weight falls on the space before the word.
inline int space_before_word_count(const Tape& tape, const std::string& text, int b, int h) {
    int count = 0;
    for (int t : after_word_start(text)) count += biggest_read(tape, b, h, t) == space_before_word(text, t);
    return count;
}

// The head (b, h) with the most hits of a count; the first on ties.
template <typename Count>
inline void best_head(Count count, int& best_b, int& best_h) {
    best_b = best_h = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            if (count(b, h) > count(best_b, best_h)) best_b = b, best_h = h;
}

// The average, over t >= 1, of the share t puts on itself and the two letters before it.
inline float near_share(const Tape& tape, int b, int h) {
    float total = 0.0f;
    for (int t = 1; t < tape.T; t++)
        for (int s = std::max(0, t - 2); s <= t; s++) total += weight(tape, b, h, t, s);
    return total / float(tape.T - 1);
}

// The average, over t >= 1, of how far back t reads: the sum of weight x (t - s).
inline float look_back(const Tape& tape, int b, int h) {
    float total = 0.0f;
    for (int t = 1; t < tape.T; t++)
        for (int s = 0; s <= t; s++) total += weight(tape, b, h, t, s) * float(t - s);
    return total / float(tape.T - 1);
}

// ===========================================================================
// Pictures. SVG from plot.hpp's pieces; what the HTML page points at lives in
// groups with ids ("reads12"), shown one at a time by the page's script.

constexpr double CELL = 12;        // the triangle's squares and the arcs' letters are this far apart
constexpr float FAINTEST = 0.01f;  // lighter reads than this are left out of the arcs
constexpr double TRIANGLE_LEFT = 60, TRIANGLE_TOP = 60;      // room for the row and column labels
constexpr double ARCS_LEFT = 110, ARCS_TOP = 50, LANE = 62;  // room for the heads' names; one lane per head

const char* const RED = "fill=\"#b2182b\" ";  // put after "<text " for the letter doing the reading

// The start of group "reads<i>" (shown, or hidden until the page shows it); "</g>\n" ends it.
inline void open_group(std::string& out, int i, bool visible) {
    append_formatted(out, "<g id=\"reads%d\"%s>\n", i, visible ? "" : " display=\"none\"");
}

// A darker blue for more weight.
inline std::string ink(float w) { return svg_colour(heat_colour(std::fmin(1.0f, 0.3f + 0.7f * w), false)); }

// The triangle of one head: row t, column s, a square whose area is the weight.
// In the empty corner above the diagonal, what one row reads. With every_row
// (the page), each row's read-out is there, and only `row`'s is shown.
inline std::string triangle_svg(const Tape& tape, const std::string& text, int b, int h, int row, bool every_row) {
    const int T = tape.T;
    const double left = TRIANGLE_LEFT, top = TRIANGLE_TOP;
    const double W = left + T * CELL + 20, H = top + T * CELL + 20;
    std::string svg = svg_open(int(W), int(H));
    add_text(svg, left, 24, formatted("%s reading \"%s\"", head_name(b, h).c_str(), text.c_str()), "start", 0, 14);
    add_text(svg, left, 42, "row: the letter reading; column: the letter read; area: the weight", "start", 0, 11);
    for (int t = 0; t < T; t++) {
        const double y = top + t * CELL;
        const char letter[] = {shown(text[t]), '\0'};
        add_text(svg, left - 6, y + CELL - 2, formatted("%d %c", t, letter[0]), "end", 0, 10);
        add_text(svg, left + (t + 0.5) * CELL, top - 4, letter, "middle", 0, 10);
        add_line(svg, left, y + CELL, left + (t + 1) * CELL, y + CELL, "#eeeeee");
        for (int s = 0; s <= t; s++) {
            const double side = CELL * std::sqrt(double(weight(tape, b, h, t, s)));
            add_rect(svg, left + (s + 0.5) * CELL - side / 2, y + CELL / 2 - side / 2, side, side, "#2166ac");
        }
    }
    add_line(svg, left, top, left + T * CELL, top + T * CELL, "#bbbbbb");  // the diagonal
    for (int t = 0; t < T; t++) {
        if (!every_row && t != row) continue;
        open_group(svg, t, t == row);
        add_path(svg, formatted("M%.1f,%.1f h%.1f v%.1f H%.1f Z", left, top + t * CELL, (t + 1) * CELL, CELL, left),
                 "#b2182b", 1);  // the row, outlined
        const double x = left + T * CELL - 8;
        add_text(svg, x, top + 16, formatted("row %d '%c' reads:", t, shown(text[t])), "end", 0, 12);
        std::vector<int> top5 = top_reads(tape, b, h, t, 5);
        for (size_t i = 0; i < top5.size(); i++)
            add_text(
                svg, x, top + 32 + 15 * i,
                formatted("'%c' at %d: %.0f%%", shown(text[top5[i]]), top5[i], 100.0 * weight(tape, b, h, t, top5[i])),
                "end", 0, 12);
        svg += "</g>\n";
    }
    svg += "</svg>\n";
    return svg;
}

// The arcs: one lane per head, the sentence along each; from letter t an arc
// back to each letter it reads, darker and wider for more weight.
inline void add_arcs(std::string& out, const Tape& tape, const std::string& text, int t, double left, double top,
                     double lane) {
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++) {
            const double base = top + (b * HEADS + h) * lane + lane - 16;  // where the arcs land
            const double xt = left + (t + 0.5) * CELL;
            for (int s = 0; s <= t; s++) {
                float w = weight(tape, b, h, t, s);
                if (w < FAINTEST) continue;
                const double xs = left + (s + 0.5) * CELL;
                const double rise = std::fmin(lane - 22, 6 + (t - s) * 2.0);
                std::string d = s == t ? formatted("M%.1f,%.1f a3,5 0 1 1 6,0", xt - 3, base)
                                       : formatted("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", xt, base, (xt + xs) / 2,
                                                   base - 2 * rise, xs, base);
                add_path(out, d, ink(w).c_str(), 0.5 + 3.0 * w);
            }
            const size_t letter = out.size();
            const char shown_letter[] = {shown(text[t]), '\0'};
            add_text(out, xt, base + 12, shown_letter, "middle", 0, 11);
            out.insert(letter + 6, RED);
            std::string reads;
            for (int s : top_reads(tape, b, h, t, 3))
                append_formatted(reads, "%s'%c' at %d: %.0f%%", reads.empty() ? "" : ", ", shown(text[s]), s,
                                 100.0 * weight(tape, b, h, t, s));
            add_text(out, left + tape.T * CELL + 12, base - 4, reads, "start", 0, 11);
        }
}

// Every head's arcs from letter `at`; with every_letter (the page), each letter's
// arcs are there, and only `at`'s are shown.
inline std::string arcs_svg(const Tape& tape, const std::string& text, int at, bool every_letter) {
    const double left = ARCS_LEFT, top = ARCS_TOP, lane = LANE;
    const double W = left + tape.T * CELL + 270, H = top + BLOCKS * HEADS * lane + 10;
    std::string svg = svg_open(int(W), int(H));
    add_text(svg, left, 22, formatted("Where each head looks from a letter of \"%s\"", text.c_str()), "start", 0, 14);
    add_text(svg, left, 38, "each arc runs back to a letter it reads; darker reads more", "start", 0, 11);
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++) {
            const double base = top + (b * HEADS + h) * lane + lane - 16;
            add_text(svg, 8, base - 4, head_name(b, h), "start", 0, 12);
            for (int s = 0; s < tape.T; s++) {
                const char letter[] = {shown(text[s]), '\0'};
                add_text(svg, left + (s + 0.5) * CELL, base + 12, letter, "middle", 0, 11);
            }
        }
    for (int t = 0; t < tape.T; t++)
        if (every_letter || t == at) {
            open_group(svg, t, t == at);
            add_arcs(svg, tape, text, t, left, top, lane);
            svg += "</g>\n";
        }
    svg += "</svg>\n";
    return svg;
}

// ===========================================================================
// The triangle's and the arcs' page (html_document in tiny_pictures.hpp makes
// the file), with a few lines of plain JavaScript. Pointing at row or letter i (a
// mouse or pen over it, a finger's tap on it), or the arrow keys once the picture
// has focus, shows group "reads<i>". On a phone the picture is drawn PHONE_SCALE
// times as large, in a box that scrolls sideways: a finger dragged on it scrolls,
// so only a tap reads. tests/checks/chapter_tiny_demos_browser.sh drives it in Chromium.

const char* const PAGE_SCRIPT = R"(<script>
const demo = document.getElementById('demo'), svg = demo.querySelector('svg');
const axis = demo.dataset.axis, first = +demo.dataset.first, cell = +demo.dataset.cell, count = +demo.dataset.count;
let current = +demo.dataset.shown;
function show(i) {
  if (i < 0 || i >= count || i === current) return;
  document.getElementById('reads' + current).setAttribute('display', 'none');
  document.getElementById('reads' + i).removeAttribute('display');
  current = i;
  tell();
}
// On a phone the picture's own read-out may be off the screen: its words again, in a line kept at the screen's foot.
const reading = document.getElementById('reading');
const lanes = [...svg.querySelectorAll(':scope > text')].map(t => t.textContent)
                                                           .filter(s => /^block \d head \d$/.test(s));  // the arcs'
function tell() {
  const words = [...document.getElementById('reads' + current).querySelectorAll('text')].map(t => t.textContent);
  if (!lanes.length) { reading.textContent = words[0] + ' ' + words.slice(1).join(', '); return; }  // a row's reads
  const reads = words.filter(s => s.length > 1);  // each lane's, after the letter drawn red in it
  reading.textContent = `letter ${current} '${words[0]}', the top reads of each head (block.head):\n` +
                        lanes.map((name, h) => name.replace(/block (\d) head (\d)/, '$1.$2: ') + reads[h]).join('\n');
}
tell();
function point(e) {  // the pointer in the picture's own units, however large the page shows it
  const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  show(Math.floor(((axis === 'y' ? at.y : at.x) - first) / cell));
}
// A mouse or pen reads what it moves over. A finger reads what it taps: a drag scrolls (the browser then
// cancels the pointer, so no pointerup), and the row or letter shown stays.
const finger = e => e.pointerType === 'touch';
// Sideways, a finger scrolls the box only if the picture is wider than it; else it does nothing
// (not the browser's "back").
const sideways = () => { svg.style.touchAction = demo.scrollWidth > demo.clientWidth ? 'auto' : 'pan-y pinch-zoom'; };
sideways();
addEventListener('resize', sideways);
// On a phone the box opens on the letter shown, three quarters across (its arcs run back to the left), not on
// the box's empty left end.
if (axis === 'x' && demo.scrollWidth > demo.clientWidth) {
  const at = new DOMPoint(first + (current + 0.5) * cell, 0).matrixTransform(svg.getScreenCTM());
  demo.scrollLeft += at.x - demo.getBoundingClientRect().left - 0.75 * demo.clientWidth;
}
svg.addEventListener('pointermove', e => { if (!finger(e)) point(e); });
svg.addEventListener('pointerdown', e => { demo.focus({preventScroll: true}); if (!finger(e)) point(e); });
svg.addEventListener('pointerup', e => { if (finger(e)) point(e); });
demo.addEventListener('keydown', e => {
  const step = {ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1}[e.key];
  if (step) { show(current + step); e.preventDefault(); }
});
</script>
)";

// On a phone, rows and letters PHONE_SCALE x CELL = 24 px apart (WCAG 2.2's smallest target), the text 20-28 px.
constexpr double PHONE_SCALE = 2;

// axis 'y': the items are rows, `first` pixels from the top; 'x': letters, from the left.
inline std::string html_page(const std::string& title, const std::string& intro, const std::string& svg, char axis,
                             double first, int count, int shown_first) {
    const double width = std::atof(svg.c_str() + svg.find("width=\"") + 7);  // as svg_open wrote it
    return html_document(title, intro,
                         formatted("<div id=\"demo\" class=\"scrolls\" style=\"--phone-width: %gpx\" tabindex=\"0\" "
                                   "data-axis=\"%c\" data-first=\"%g\" data-cell=\"%g\" data-count=\"%d\" "
                                   "data-shown=\"%d\">\n%s</div>\n<p id=\"reading\" aria-live=\"polite\"></p>\n",
                                   PHONE_SCALE * width, axis, first, CELL, count, shown_first, svg.c_str()),
                         PAGE_SCRIPT);
}

// tiny_2_No_Peeking's page: one head's triangle, each row's reads shown as it is pointed at.
inline std::string triangle_page(const Tape& tape, const std::string& text, int b, int h, int row) {
    const std::string intro = formatted(
        "The tiny model's %s reading \"%s\". Point at a row (on a phone, tap it), or "
        "click the picture and use the up and down arrow keys, to see what that letter "
        "reads. Nothing is above the diagonal: no letter reads ahead.",
        head_name(b, h).c_str(), text.c_str());
    return html_page("No peeking", intro, triangle_svg(tape, text, b, h, row, true), 'y', TRIANGLE_TOP, tape.T, row);
}
