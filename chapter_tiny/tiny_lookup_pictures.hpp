// chapter_tiny/tiny_lookup_pictures.hpp: how tiny_1_Soft_Lookup draws its
// lookup: the arrows' chart and the bars in the terminal, the SVG picture, the
// page where the query is dragged, the screen and keys of --interactive, and
// reading --query X,Y. The lookup itself (the words, keys, values and the
// softmax) is the lesson's: it hands each drawing what it draws, and nothing here calls it.
//
// Every word's key and value has two numbers, so that it fits on a flat chart.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.hpp"
#include "keys.hpp"  // start_keys, read_key: the keyboard one key at a time
#include "matrix.hpp"
#include "plot.hpp"
#include "tiny_pictures.hpp"  // group, html_document

constexpr float STEP = 0.25f;  // how far one arrow key moves the query
constexpr float REACH = 3.0f;  // the chart and the query stay within -3..3
constexpr int BAR_WIDTH = 40;  // characters for a share of 100%

// The words the pictures show: their names, and one row of two numbers per word in keys and values.
struct WordArrows {
    const char* const* word;
    const Matrix& keys;    // (words x 2)
    const Matrix& values;  // (words x 2)
};

// ---------------------------------------------------------------------------
// Drawing. Plain (ASCII) is what the golden checks; fancy adds colour and blocks.

struct Style {
    bool fancy;
    std::string paint(const std::string& s, int colour) const {
        return fancy ? formatted("\x1b[%dm%s\x1b[0m", colour, s.c_str()) : s;
    }
};
const int WORD_COLOUR[] = {34, 32, 31, 35};  // blue, green, red, magenta: one per word, for the lesson's four
constexpr int QUERY_COLOUR = 1;              // bold

inline std::string trim_right(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

// A tip on the chart, in its colour: a word's first letter, or Q for the query.
inline std::string tip(const WordArrows& words, char letter, const Style& style) {
    int colour = QUERY_COLOUR;
    for (int w = 0; w < words.keys.rows; w++)
        if (words.word[w][0] == letter) colour = WORD_COLOUR[w];
    return style.paint(std::string(1, letter), colour);
}

// The arrows' tips on a grid: one column per STEP across, one row per 2 STEPs up.
inline std::string chart(const WordArrows& words, const float query[2], const Style& style) {
    const Matrix& keys = words.keys;
    const int columns = int(2 * REACH / STEP) + 1, rows = int(REACH / STEP) + 1;
    std::string cell(size_t(rows) * columns, ' ');  // row by row; the only letters are the tips
    auto at = [&](float x, float y) -> char& {
        int c = int(std::lround((x + REACH) / STEP)), r = int(std::lround((REACH - y) / (2 * STEP)));
        return cell[size_t(r) * columns + c];
    };
    for (int r = 0; r < rows; r++) cell[size_t(r) * columns + columns / 2] = '|';
    for (int c = 0; c < columns; c++) cell[size_t(rows / 2) * columns + c] = '-';
    cell[size_t(rows / 2) * columns + columns / 2] = '+';
    // Each arrow as dots from the middle to its tip.
    for (int w = 0; w < keys.rows; w++)
        for (int i = 1; i < 12; i++) {
            char& c = at(keys(w, 0) * i / 12, keys(w, 1) * i / 12);
            if (c == ' ') c = '.';
        }
    for (int w = 0; w < keys.rows; w++) at(keys(w, 0), keys(w, 1)) = words.word[w][0];
    at(query[0], query[1]) = 'Q';
    std::string out;
    for (int r = 0; r < rows; r++) {
        const char* label = r == 0 ? "   3 " : r == rows / 2 ? "   0 " : r == rows - 1 ? "  -3 " : "     ";
        for (char c : trim_right(label + cell.substr(size_t(r) * columns, columns)))
            if (std::isalpha(static_cast<unsigned char>(c))) out += tip(words, c, style);
            else out += c;
        out += "\n";
    }
    out += formatted("     -3%*s0%*s3\n     keys: ", columns / 2 - 2, "", columns / 2 - 2, "");
    for (int w = 0; w < keys.rows; w++)
        out += formatted("%s %s  ", tip(words, words.word[w][0], style).c_str(), words.word[w]);
    return out + tip(words, 'Q', style) + " the query for \"small\"\n";
}

// A share as a bar of up to BAR_WIDTH characters.
inline std::string bar(float share, const Style& style, int colour) {
    int n = int(std::lround(share * BAR_WIDTH));
    std::string b;
    for (int i = 0; i < n; i++) b += style.fancy ? "\u2588" : "#";
    return style.paint(b, colour);
}

// Two numbers as "( 1.50, -1.50)".
inline std::string pair(const float* v) {
    auto shown = [](float x) { return std::fabs(x) < 0.005f ? 0.0 : double(x); };  // no "-0.00"
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%5.2f, %5.2f)", shown(v[0]), shown(v[1]));
    return buf;
}

// ---------------------------------------------------------------------------
// --svg: the keys and the query as arrows, the shares as bars, and the values
// with what the query finds.

const char* const WORD_INK[] = {"#2166ac", "#1b7837", "#b2182b", "#762a83"};  // the terminal's colours
constexpr double PLANE = 240;                                                 // pixels across a chart from -3 to 3
constexpr double CHART_TOP = 70, KEYS_LEFT = 30, BARS_LEFT = 340, BAR_LENGTH = 220, VALUES_LEFT = 680;  // the layout
constexpr int PICTURE_WIDTH = 960, PICTURE_HEIGHT = 350;

// A line from (x0, y0) to (x1, y1) in pixels, with a V at its tip.
inline std::string arrow(double x0, double y0, double x1, double y1, const std::string& ink, double width) {
    const double dx = x1 - x0, dy = y1 - y0, length = std::sqrt(dx * dx + dy * dy);
    if (length < 1) return "";
    const double ux = dx / length, uy = dy / length, head = 7 + 2 * width;
    std::string svg;
    add_path(svg,
             formatted("M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f", x0, y0, x1, y1,
                       x1 - head * ux + head * 0.5 * uy, y1 - head * uy - head * 0.5 * ux, x1, y1,
                       x1 - head * ux - head * 0.5 * uy, y1 - head * uy + head * 0.5 * ux),
             ink.c_str(), width);
    return svg;
}

// A chart from -3 to 3 each way, `left` pixels from the left.
inline double px(double left, float x) { return left + (x + REACH) / (2 * REACH) * PLANE; }
inline double py(float y) { return CHART_TOP + (REACH - y) / (2 * REACH) * PLANE; }

inline std::string chart_background(double left, const std::string& title) {
    std::string svg;
    add_text(svg, left + PLANE / 2, CHART_TOP - 12, title, "middle", 0, 13);
    add_rect(svg, left, CHART_TOP, PLANE, PLANE, "#f7f7f7");
    add_line(svg, px(left, -REACH), py(0), px(left, REACH), py(0), "#bbbbbb");
    add_line(svg, px(left, 0), py(-REACH), px(left, 0), py(REACH), "#bbbbbb");
    return svg;
}

// One arrow per word from the middle, each `widths[w]` wide, labelled at its tip.
inline std::string word_arrows(double left, const char* const* word, const Matrix& arrows,
                               const std::vector<float>& widths) {
    std::string svg;
    for (int w = 0; w < arrows.rows; w++) {
        svg += arrow(px(left, 0), py(0), px(left, arrows(w, 0)), py(arrows(w, 1)), WORD_INK[w], widths[w]);
        add_text(svg, px(left, arrows(w, 0) * 1.12f), py(arrows(w, 1) * 1.12f) + 4, word[w], "middle", 0, 12);
    }
    return svg;
}

// The thick black arrow (the query, or what it finds), with its name and numbers under the chart.
inline std::string thick_arrow(double left, const float v[2], const std::string& name) {
    std::string svg = arrow(px(left, 0), py(0), px(left, v[0]), py(v[1]), "black", 3.5);
    add_text(svg, px(left, v[0]) + 6, py(v[1]) + 16, name, "start", 0, 12);
    add_text(svg, left + PLANE / 2, CHART_TOP + PLANE + 20, formatted("%s = %s", name.c_str(), pair(v).c_str()),
             "middle", 0, 12);
    return svg;
}

// The picture's three charts, each drawn where it sits in the one picture: the keys
// and the query, the shares' bars, and the values with what the query finds. Their
// changing parts are groups (query, bars, values) the page's script redraws.
struct LookupCharts {
    std::string keys, bars, values;
};
inline LookupCharts lookup_charts(const WordArrows& words, const float query[2], const float* weights,
                                  const float found[2]) {
    const int count = words.keys.rows;
    LookupCharts chart;
    chart.keys = chart_background(KEYS_LEFT, "the keys and the query");
    chart.keys += word_arrows(KEYS_LEFT, words.word, words.keys, std::vector<float>(count, 2.0f));
    chart.keys += group("query", true, thick_arrow(KEYS_LEFT, query, "query"));
    add_text(chart.bars, BARS_LEFT + 140, CHART_TOP - 12, "the share \"small\" reads from each word", "middle", 0, 13);
    std::string bars;
    for (int w = 0; w < count; w++) {
        const double y = CHART_TOP + 20 + 50 * w, length = BAR_LENGTH * weights[w];
        add_text(chart.bars, BARS_LEFT + 30, y + 15, words.word[w], "end", 0, 13);
        add_rect(bars, BARS_LEFT + 38, y, length, 22, WORD_INK[w]);
        add_text(bars, BARS_LEFT + 44 + length, y + 15, format_number("%.1f%%", 100.0 * weights[w]), "start", 0, 12);
    }
    chart.bars += group("bars", true, bars);
    std::vector<float> widths(count);  // each value's arrow as wide as its share
    for (int w = 0; w < count; w++) widths[w] = 0.5f + 6 * weights[w];
    chart.values = chart_background(VALUES_LEFT, "the values, and what \"small\" finds");
    chart.values +=
        group("values", true,
              word_arrows(VALUES_LEFT, words.word, words.values, widths) + thick_arrow(VALUES_LEFT, found, "found"));
    return chart;
}

// --svg: the picture of one query's lookup, the three charts side by side under a title.
inline std::string lookup_svg(const WordArrows& words, const float query[2], const float* weights,
                              const float found[2]) {
    std::string svg = svg_open(PICTURE_WIDTH, PICTURE_HEIGHT);
    add_text(svg, 20, 26,
             "A soft lookup: the query for \"small\" (the numbers are made up, two each so they fit on a "
             "flat chart)",
             "start", 0, 14);
    const LookupCharts chart = lookup_charts(words, query, weights, found);
    return svg + chart.keys + chart.bars + chart.values + "</svg>\n";
}

// ---------------------------------------------------------------------------
// --html: the picture, and a script that lets you drag the query over the keys'
// chart with a mouse, a pen or a finger (or move it with the arrow keys), as the
// chapter's page does, and redraws the parts that change, computed as the lesson does.

// The page's script: the lookup again, then the parts of the picture that change.
// Before it: keys, values, the layout's numbers and the first query.
// Its svg is the first of the page's three: the keys' chart.
const char* const LOOKUP_SCRIPT = R"(const demo = document.getElementById('demo'), svg = demo.querySelector('svg');
const px = (left, x) => left + (x + REACH) / (2 * REACH) * PLANE, py = y => TOP + (REACH - y) / (2 * REACH) * PLANE;
const f1 = x => x.toFixed(1), pair = v => '(' + v.map(x => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2).padStart(5)).join(', ') + ')';
function arrow(left, v, width) {  // as the program draws it: a line and a V at the tip
  const x0 = px(left, 0), y0 = py(0), x1 = px(left, v[0]), y1 = py(v[1]), length = Math.hypot(x1 - x0, y1 - y0);
  if (length < 1) return 'M0,0';
  const ux = (x1 - x0) / length, uy = (y1 - y0) / length, head = 7 + 2 * width, p = (x, y) => f1(x) + ',' + f1(y);
  return 'M' + p(x0, y0) + ' L' + p(x1, y1) + ' M' + p(x1 - head * ux + head * 0.5 * uy, y1 - head * uy - head * 0.5 * ux) +
         ' L' + p(x1, y1) + ' L' + p(x1 - head * ux - head * 0.5 * uy, y1 - head * uy + head * 0.5 * ux);
}
function thick(parts, at, left, v, name) {  // the black arrow, its name at the tip, its numbers under the chart
  parts[at].setAttribute('d', arrow(left, v, 3.5));
  parts[at + 1].setAttribute('x', f1(px(left, v[0]) + 6));
  parts[at + 1].setAttribute('y', f1(py(v[1]) + 16));
  parts[at + 2].textContent = name + ' = ' + pair(v);
}
function show(q) {
  query = q.map(x => Math.max(-REACH, Math.min(REACH, x)));
  const scores = keys.map(k => query[0] * k[0] + query[1] * k[1]), top = Math.max(...scores);
  const e = scores.map(s => Math.exp(s - top)), total = e.reduce((a, b) => a + b), weights = e.map(x => x / total);
  const found = [0, 1].map(c => weights.reduce((sum, w, i) => sum + w * values[i][c], 0));
  const bars = document.getElementById('bars').children, drawn = document.getElementById('values').children;
  weights.forEach((w, i) => {
    bars[2 * i].setAttribute('width', f1(BAR * w));
    bars[2 * i + 1].setAttribute('x', f1(BARS + 44 + BAR * w));
    bars[2 * i + 1].textContent = (100 * w).toFixed(1) + '%';
    drawn[2 * i].setAttribute('d', arrow(VALUES, values[i], 0.5 + 6 * w));
    drawn[2 * i].setAttribute('stroke-width', 0.5 + 6 * w);
  });
  thick(document.getElementById('query').children, 0, KEYS, query, 'query');
  thick(drawn, 2 * keys.length, VALUES, found, 'found');
}
// Dragging the query: press on the keys' chart (a mouse button, a pen or a finger) and move; it follows until let go.
let dragging = null;
// In the one picture's units (each chart's viewBox crops that space), however large the chart is shown.
const inPicture = e => new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
function drag(e) {
  const {x, y} = inPicture(e);
  show([(x - KEYS) / PLANE * 2 * REACH - REACH, REACH - (y - TOP) / PLANE * 2 * REACH].map(v => Math.round(v * 20) / 20));
}
svg.style.touchAction = 'none';  // a finger on the keys' chart drags the query instead of scrolling the page
svg.addEventListener('pointerdown', e => {
  const {x, y} = inPicture(e);
  if (x < KEYS || x > KEYS + PLANE || y < TOP || y > TOP + PLANE) return;
  dragging = e.pointerId;
  svg.setPointerCapture(e.pointerId);
  demo.focus({preventScroll: true});  // (on a phone the charts are taller than the screen: focus would scroll them)
  drag(e);
  e.preventDefault();
});
svg.addEventListener('pointermove', e => { if (e.pointerId === dragging) drag(e); });
const drop = e => { if (e.pointerId === dragging) dragging = null; };
svg.addEventListener('pointerup', drop);
svg.addEventListener('pointercancel', drop);
demo.addEventListener('keydown', e => {
  const move = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]}[e.key];
  if (move) { show([query[0] + move[0] * STEP, query[1] + move[1] * STEP]); e.preventDefault(); }
});
</script>
)";

// The page's three charts, each an SVG whose viewBox crops it from the one picture's space (so the
// script's px() and py() hold in all three): side by side on a wide screen, stacked on a phone.
struct Crop {
    double left, right;
};
// From the charts' titles to the picture's foot.
constexpr double CROP_TOP = CHART_TOP - 30, CROP_HEIGHT = PICTURE_HEIGHT - CROP_TOP;
constexpr Crop KEYS_CROP{KEYS_LEFT - 30, KEYS_LEFT + PLANE + 50}, BARS_CROP{BARS_LEFT - 40, BARS_LEFT + 320},
    VALUES_CROP{VALUES_LEFT - 20, VALUES_LEFT + PLANE + 40};  // room for the labels past each chart's edge
inline std::string cropped_svg(Crop crop, const std::string& inside) {
    const double width = crop.right - crop.left;
    return formatted(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"%g %g %g %g\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n%s</svg>\n",
        width, CROP_HEIGHT, crop.left, CROP_TOP, width, CROP_HEIGHT, inside.c_str());
}

inline std::string lookup_page(const WordArrows& words, const float query[2], const float* weights,
                               const float found[2]) {
    auto list = [](const Matrix& m) {
        std::string s = "[";
        for (int w = 0; w < m.rows; w++) s += formatted("%s[%g, %g]", w ? ", " : "", m(w, 0), m(w, 1));
        return s + "]";
    };
    const LookupCharts chart = lookup_charts(words, query, weights, found);
    const std::string charts = cropped_svg(KEYS_CROP, chart.keys) + cropped_svg(BARS_CROP, chart.bars) +
                               cropped_svg(VALUES_CROP, chart.values);
    const std::string script = formatted(
        "<script>\nconst keys = %s, values = %s;\nconst REACH = %g, PLANE = %g, TOP = %g, KEYS = %g, VALUES = %g, "
        "BARS = %g, BAR = %g, STEP = %g;\nlet query = [%g, %g];\n%s",
        list(words.keys).c_str(), list(words.values).c_str(), REACH, PLANE, CHART_TOP, KEYS_LEFT, VALUES_LEFT,
        BARS_LEFT, BAR_LENGTH, STEP, query[0], query[1], LOOKUP_SCRIPT);
    return html_document("A soft lookup",
                         "Four words of the sentence as arrows of made-up numbers, two each so they fit on a flat "
                         "chart: their keys. Drag the query for \"small\" over the keys' chart (press anywhere on it), "
                         "or click the picture and use the arrow keys; the bars show the share it reads from each "
                         "word, and the last chart the values and the mix it gets back.",
                         formatted("<div id=\"demo\" class=\"charts\" tabindex=\"0\">\n%s</div>\n", charts.c_str()),
                         script);
}

// ---------------------------------------------------------------------------
// --interactive: one key at a time (keys.hpp, after start_keys). The lesson
// shows each screen (the chart and its table), then moves the query by the key read.

// The screen redrawn in place with ANSI codes, under a line that says which keys do what.
inline void show_screen(const std::string& screen) {
    const std::string top =
        "\x1b[?25l\x1b[H\x1b[2J"  // hide the cursor, home, clear
        "A soft lookup: arrow keys move the query, 0 puts it in the middle, q quits.\n\n";
    std::fputs((top + screen).c_str(), stdout);
    std::fflush(stdout);
}

inline float clamp(float v) { return v < -REACH ? -REACH : v > REACH ? REACH : v; }

// The query moved by one key, within the chart; false for q or the end of input.
inline bool move_query(int key, float query[2]) {
    if (key == KEY_END || key == 'q' || key == 'Q') return false;
    if (key == KEY_UP) query[1] = clamp(query[1] + STEP);
    if (key == KEY_DOWN) query[1] = clamp(query[1] - STEP);
    if (key == KEY_RIGHT) query[0] = clamp(query[0] + STEP);
    if (key == KEY_LEFT) query[0] = clamp(query[0] - STEP);
    if (key == '0') query[0] = query[1] = 0.0f;
    return true;
}

// --query X,Y: two numbers, each within the chart.
inline void parse_query(const std::string& text, float query[2]) {
    const char* s = text.c_str();
    char* end = nullptr;
    double x = std::strtod(s, &end);
    bool ok = end != s && *end == ',';
    double y = 0.0;
    if (ok) {
        const char* second = end + 1;
        y = std::strtod(second, &end);
        ok = end != second && *end == '\0';
    }
    if (!ok || x != x || y != y) fail("--query expects two numbers X,Y such as 1.5,-1.5, got '" + text + "'");
    if (x < -REACH || x > REACH || y < -REACH || y > REACH)
        fail("--query: each number must be from -3 to 3, got '" + text + "'");
    query[0] = float(x);
    query[1] = float(y);
}
