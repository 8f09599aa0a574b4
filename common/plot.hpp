// common/plot.hpp: line charts and heatmaps, as standalone SVG files or drawn
// in the terminal. No dependencies beyond the standard library.
//
//   LineChart chart{"Loss", "update", "loss", xs, {{"training", train}, {"validation", valid}}};
//   std::fputs(text_line_chart(chart, fancy_output()).c_str(), stdout);
//   write_svg(dir, "loss.svg", svg_line_chart(chart));
//
// In the terminal, fancy (a terminal without NO_COLOR) uses colour and Unicode;
// plain is ASCII only, the same on every machine: that form is what goldens check.
// The SVG pieces (svg_open, add_text, add_rect, add_line, add_path) are there
// for other pictures too.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "maths.hpp"  // power
#include "matrix.hpp"

struct Series {
    std::string name;
    std::vector<float> y;     // one value per x
    std::string colour = "";  // SVG colour, e.g. "#d62728"; "" takes the next from SERIES_COLOURS
};

struct LineChart {
    std::string title, x_label, y_label;
    std::vector<float> x;  // shared by every series
    std::vector<Series> series;
    float y_min = NAN, y_max = NAN;  // the y range; NaN: from the data
};

struct Heatmap {
    std::string title;
    Matrix values;                                    // (rows x cols)
    std::vector<std::string> row_labels, col_labels;  // "" leaves a row or column unlabelled
    float lo = NAN, hi = NAN;                         // the colour scale's range; NaN: from the data
    std::string x_label = "", y_label = "";           // what the columns and the rows are (SVG only)
};

// ---------------------------------------------------------------------------
// Shared helpers

inline std::string format_number(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// About `target` round tick values (1, 2 or 5 times a power of ten) covering [lo, hi].
inline std::vector<double> nice_ticks(double lo, double hi, int target = 5) {
    double span = hi > lo ? hi - lo : 1.0;
    // The power of ten at or below raw, found by exact steps rather than log10 and pow.
    double raw = span / target, magnitude = 1.0;
    while (magnitude * 10.0 <= raw) magnitude *= 10.0;
    for (int down = 1; magnitude > raw; down++) magnitude = 1.0 / power(10.0, down);
    double f = raw / magnitude;
    double step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * magnitude;
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

// The smallest and largest value, unless given (not NaN).
inline void value_range(const std::vector<float>& values, float& lo, float& hi, float given_lo = NAN,
                        float given_hi = NAN) {
    lo = values.empty() ? 0.0f : values[0], hi = lo;
    for (float v : values) lo = v < lo ? v : lo, hi = v > hi ? v : hi;
    if (!std::isnan(given_lo)) lo = given_lo;
    if (!std::isnan(given_hi)) hi = given_hi;
    if (hi <= lo) hi = lo + 1.0f;
}

// Heat colour for t in [0, 1]: blue-white-red when the data has both signs
// (white at zero), white-to-blue otherwise.
struct Rgb {
    int r, g, b;
};
inline Rgb heat_colour(float t, bool diverging) {
    auto mix = [](Rgb a, Rgb b, float s) {
        return Rgb{int(a.r + (b.r - a.r) * s + 0.5f), int(a.g + (b.g - a.g) * s + 0.5f),
                   int(a.b + (b.b - a.b) * s + 0.5f)};
    };
    const Rgb blue{33, 102, 172}, white{247, 247, 247}, red{178, 24, 43};
    if (!diverging) return mix(white, blue, t);
    return t < 0.5f ? mix(blue, white, t * 2) : mix(white, red, t * 2 - 1);
}
// Where v sits on the colour scale: symmetric about 0 for signed data.
inline float heat_position(float v, float lo, float hi, bool diverging) {
    float t = diverging ? 0.5f + 0.5f * v / std::fmax(std::fabs(lo), std::fabs(hi)) : (v - lo) / (hi - lo);
    return std::fmin(1.0f, std::fmax(0.0f, t));
}

const char* const SERIES_COLOURS[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
const char* const PLAIN_MARKS = "*o+x%=";
const char* const FANCY_MARKS[] = {"\u25cf", "\u25c6", "\u25b2", "\u25a0", "\u2605", "\u25bc"};
const int ANSI_COLOURS[] = {34, 31, 32, 35, 33, 36};

// ---------------------------------------------------------------------------
// SVG building blocks: each add_ call appends one element to a document being built.

// printf onto the end of `out`.
[[gnu::format(printf, 2, 3)]] inline void append_formatted(std::string& out, const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    append_formatted_list(out, format, args);
    va_end(args);
}

inline void add_escaped(std::string& out, const char* s) {
    for (; *s; s++) {
        if (*s == '&') out += "&amp;";
        else if (*s == '<') out += "&lt;";
        else if (*s == '>') out += "&gt;";
        else out += *s;
    }
}
// anchor: "start", "middle" or "end"; rotate: degrees about (x, y).
inline void add_text(std::string& out, double x, double y, const std::string& s, const char* anchor = "middle",
                     int rotate = 0, int size = 12) {
    append_formatted(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"", x, y, anchor, size);
    if (rotate) append_formatted(out, " transform=\"rotate(%d %.1f %.1f)\"", rotate, x, y);
    out += ">";
    add_escaped(out, s.c_str());
    out += "</text>\n";
}
inline void add_rect(std::string& out, double x, double y, double w, double h, const char* fill) {
    append_formatted(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x, y, w, h,
                     fill);
}
inline void add_line(std::string& out, double x1, double y1, double x2, double y2, const char* stroke = "black") {
    append_formatted(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x1, y1, x2, y2,
                     stroke);
}
inline void add_path(std::string& out, const std::string& d, const char* stroke, double width = 2) {
    append_formatted(out, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\"/>\n", d.c_str(), stroke,
                     width);
}

inline std::string svg_escape(const std::string& s) {
    std::string out;
    add_escaped(out, s.c_str());
    return out;
}
inline std::string svg_open(int width, int height) {
    return formatted(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
        "fill=\"white\"/>\n",
        width, height, width, height);
}
// "#rrggbb"
inline std::string svg_colour(Rgb c) { return formatted("#%02x%02x%02x", unsigned(c.r), unsigned(c.g), unsigned(c.b)); }

// Writes DIR/name whole (write_file_atomic), after checking that DIR is a folder.
inline void write_svg(const std::string& dir, const char* name, const std::string& svg) {
    require_folder("--svg", dir);
    write_file_atomic(formatted("%s/%s", dir.c_str(), name), svg);
}

// ---------------------------------------------------------------------------
// Line charts

// The ranges a chart's axes cover: every series' values (or y_min and y_max if
// given) and the x values.
inline void chart_ranges(const LineChart& c, float& ylo, float& yhi, float& xlo, float& xhi) {
    std::vector<float> all;
    for (const Series& s : c.series)
        for (float y : s.y) all.push_back(y);
    value_range(all, ylo, yhi, c.y_min, c.y_max);
    value_range(c.x, xlo, xhi);
}

inline std::string svg_line_chart(const LineChart& c) {
    const double W = 680, H = 400, left = 70, right = 160, top = 40, bottom = 55;
    const double pw = W - left - right, ph = H - top - bottom;
    float ylo, yhi, xlo, xhi;
    chart_ranges(c, ylo, yhi, xlo, xhi);
    std::vector<double> yt = nice_ticks(ylo, yhi), xt = nice_ticks(xlo, xhi);
    double y0 = std::fmin(double(ylo), yt.front()), y1 = std::fmax(double(yhi), yt.back());
    auto px = [&](double x) { return left + (x - xlo) / (xhi - xlo) * pw; };
    auto py = [&](double y) { return top + (y1 - y) / (y1 - y0) * ph; };
    std::string svg = svg_open(int(W), int(H));
    add_text(svg, W / 2, 22, c.title, "middle", 0, 15);
    for (double t : yt) {
        add_line(svg, left - 5, py(t), left + pw, py(t), "#dddddd");
        add_text(svg, left - 8, py(t) + 4, format_number("%g", t), "end");
    }
    for (double t : xt) {
        add_line(svg, px(t), top + ph, px(t), top + ph + 5);
        add_text(svg, px(t), top + ph + 19, format_number("%g", t));
    }
    add_line(svg, left, top, left, top + ph);
    add_line(svg, left, top + ph, left + pw, top + ph);
    add_text(svg, left + pw / 2, H - 12, c.x_label);
    add_text(svg, 18, top + ph / 2, c.y_label, "middle", -90);
    for (size_t s = 0; s < c.series.size(); s++) {
        std::string d;
        for (size_t i = 0; i < c.x.size() && i < c.series[s].y.size(); i++)
            append_formatted(d, "%s%.1f,%.1f", i ? " L" : "M", px(c.x[i]), py(c.series[s].y[i]));
        const char* colour = c.series[s].colour.empty() ? SERIES_COLOURS[s % 6] : c.series[s].colour.c_str();
        double ly = top + 10 + 20 * s;
        add_path(svg, d, colour);
        add_line(svg, left + pw + 15, ly, left + pw + 40, ly, colour);
        add_text(svg, left + pw + 46, ly + 4, c.series[s].name, "start");
    }
    svg += "</svg>\n";
    return svg;
}

// A width x height grid of marks, y labels on the left, x labels below, a legend.
inline std::string text_line_chart(const LineChart& c, bool fancy, int width = 60, int height = 12) {
    float ylo, yhi, xlo, xhi;
    chart_ranges(c, ylo, yhi, xlo, xhi);
    const int OVERLAP = 99;  // two or more series in one cell
    bool overlap = false;
    std::vector<int> grid(size_t(height) * width, -1);  // (height x width): series index, OVERLAP or -1
    for (size_t s = 0; s < c.series.size(); s++)
        for (int col = 0; col < width; col++) {
            // The sample nearest this column's x value.
            double x = xlo + (xhi - xlo) * col / (width - 1);
            size_t best = 0;
            for (size_t i = 0; i < c.x.size(); i++)
                if (std::fabs(c.x[i] - x) < std::fabs(c.x[best] - x)) best = i;
            double y = std::fmin(double(yhi), std::fmax(double(ylo), double(c.series[s].y[best])));
            int& cell = grid[size_t(std::lround((yhi - y) / (yhi - ylo) * (height - 1))) * width + col];
            overlap = overlap || (cell >= 0 && cell != int(s));
            cell = cell >= 0 && cell != int(s) ? OVERLAP : int(s);
        }
    std::string lo_label = format_number("%.3g", ylo), hi_label = format_number("%.3g", yhi);
    size_t pad = std::max(lo_label.size(), hi_label.size());
    std::string out = "  ";
    out += c.title;
    out += "\n";
    for (int r = 0; r < height; r++) {
        const char* label = r == 0 ? hi_label.c_str() : r == height - 1 ? lo_label.c_str() : "";
        append_formatted(out, "  %*s%s", int(pad), label, fancy ? " \u2502" : " |");
        for (int col = 0; col < width; col++) {
            int s = grid[size_t(r) * width + col];
            if (s < 0) out += ' ';
            else if (s == OVERLAP) out += fancy ? "\u2726" : "#";
            else if (fancy) append_formatted(out, "\x1b[%dm%s\x1b[0m", ANSI_COLOURS[s % 6], FANCY_MARKS[s % 6]);
            else out += PLAIN_MARKS[s % 6];
        }
        while (out.back() == ' ') out.pop_back();  // no trailing spaces
        out += "\n";
    }
    append_formatted(out, "  %*s%s", int(pad + 1), "", fancy ? "\u2514" : "+");
    for (int col = 0; col < width; col++) out += fancy ? "\u2500" : "-";
    std::string xl = format_number("%g", xlo), xh = format_number("%g", xhi);
    append_formatted(out, "\n  %*s%s%*s%s  %s\n  %*s", int(pad + 2), "", xl.c_str(),
                     std::max(1, width - int(xl.size() + xh.size())), "", xh.c_str(), c.x_label.c_str(), int(pad + 2),
                     "");
    for (size_t s = 0; s < c.series.size(); s++)
        if (fancy)
            append_formatted(out, "%s\x1b[%dm%s\x1b[0m %s", s ? "   " : "", ANSI_COLOURS[s % 6], FANCY_MARKS[s % 6],
                             c.series[s].name.c_str());
        else append_formatted(out, "%s%c %s", s ? "   " : "", PLAIN_MARKS[s % 6], c.series[s].name.c_str());
    if (overlap) out += fancy ? "   \u2726 overlap" : "   # overlap";
    out += "\n";
    return out;
}

// ---------------------------------------------------------------------------
// Heatmaps

inline std::string svg_heatmap(const Heatmap& h, double cell_width = 24, double cell_height = 24) {
    const Matrix& A = h.values;
    float lo, hi;
    value_range(A.data, lo, hi, h.lo, h.hi);
    bool diverging = lo < 0 && hi > 0;
    const double left = 110, top = 50, pw = cell_width * A.cols, ph = cell_height * A.rows;
    const double W = std::max(left + pw + 110, 8.0 * h.title.size() + 40), H = top + ph + 90;  // room for the title
    std::string svg = svg_open(int(W), int(H));
    add_text(svg, W / 2, 24, h.title, "middle", 0, 15);
    add_text(svg, left + pw / 2, H - 10, h.x_label);
    add_text(svg, 16, top + ph / 2, h.y_label, "middle", -90);
    for (int i = 0; i < A.rows; i++)
        for (int j = 0; j < A.cols; j++)
            add_rect(svg, left + j * cell_width, top + i * cell_height, cell_width + 0.3, cell_height + 0.3,
                     svg_colour(heat_colour(heat_position(A(i, j), lo, hi, diverging), diverging)).c_str());
    for (int i = 0; i < A.rows && i < int(h.row_labels.size()); i++)
        add_text(svg, left - 6, top + (i + 0.5) * cell_height + 4, h.row_labels[i], "end");
    for (int j = 0; j < A.cols && j < int(h.col_labels.size()); j++)
        if (!h.col_labels[j].empty())
            add_text(svg, left + (j + 0.5) * cell_width, top + ph + 10, h.col_labels[j], "end", -60);
    // The colour scale: 20 steps from the bottom of the range to the top.
    const double sx = left + pw + 30, steps = 20, sh = ph / steps;
    for (int k = 0; k < steps; k++) {
        float v = hi - (hi - lo) * (k + 0.5f) / float(steps);
        add_rect(svg, sx, top + k * sh, 16, sh + 0.5,
                 svg_colour(heat_colour(heat_position(v, lo, hi, diverging), diverging)).c_str());
    }
    add_text(svg, sx + 20, top + 10, format_number("%.3g", hi), "start");
    add_text(svg, sx + 20, top + ph, format_number("%.3g", lo), "start");
    svg += "</svg>\n";
    return svg;
}

// Two characters per cell: a shade from the ramp (plain) or a coloured block (fancy).
inline std::string text_heatmap(const Heatmap& h, bool fancy) {
    const char* ramp = " .:-=+*#%@";  // 10 levels, lightest to darkest
    const Matrix& A = h.values;
    float lo, hi;
    value_range(A.data, lo, hi, h.lo, h.hi);
    bool diverging = lo < 0 && hi > 0;
    size_t pad = 0;
    for (const std::string& l : h.row_labels) pad = std::max(pad, l.size());
    std::string out = "  ";
    out += h.title;
    out += "\n";
    for (int i = 0; i < A.rows; i++) {
        const char* label = i < int(h.row_labels.size()) ? h.row_labels[i].c_str() : "";
        append_formatted(out, "  %*s |", int(pad), label);
        for (int j = 0; j < A.cols; j++) {
            if (fancy) {
                Rgb c = heat_colour(heat_position(A(i, j), lo, hi, diverging), diverging);
                append_formatted(out, "\x1b[48;2;%d;%d;%dm  \x1b[0m", c.r, c.g, c.b);
            } else {
                float t = std::fmin(1.0f, std::fmax(0.0f, (A(i, j) - lo) / (hi - lo)));
                int level = int(std::fmin(9.0f, std::floor(t * 10.0f)));
                out.append(2, ramp[level]);
            }
        }
        out += "|\n";
    }
    // Column labels, each under its column, where it fits after the one before.
    std::string labels(pad + 4 + 2 * A.cols + 12, ' ');
    size_t free_from = 0;
    for (int j = 0; j < A.cols && j < int(h.col_labels.size()); j++) {
        size_t at = pad + 4 + 2 * j;
        if (h.col_labels[j].empty() || at < free_from) continue;
        labels.replace(at, h.col_labels[j].size(), h.col_labels[j]);
        free_from = at + h.col_labels[j].size() + 1;
    }
    while (!labels.empty() && labels.back() == ' ') labels.pop_back();
    if (!labels.empty()) out += labels, out += "\n";
    append_formatted(out, "  %*sscale: %.3g%s%.3g%s\n", int(pad + 2), "", lo,
                     fancy ? " (blue) to " : " ' ' (lightest) to '@' (darkest) ", hi,
                     fancy && diverging ? " (red), white at 0" : "");
    return out;
}
