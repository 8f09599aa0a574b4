// chapter15/colour_pictures.hpp: where Lab 5's pictures put things, in the terminal
// and in SVG: charts over the updates, the wear row over the updates (its columns
// thinned and labelled differently in each), a heatmap printed with its range.
// What Lab 5 draws (which series, matrices and labels) is 15_2_Lab5_Training.cpp's.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "colour_recall.hpp"  // Measurement, Example, WORDS
#include "plot.hpp"

inline void show(const std::string& picture) { std::printf("%s\n", picture.c_str()); }

// A line chart over the updates 0 to `updates`, with `series` empty series to fill.
inline LineChart chart_over_updates(const char* title, const char* y_label, int updates, int series) {
    LineChart chart{title, "update", y_label, std::vector<float>(size_t(updates) + 1),
                    std::vector<Series>(size_t(series))};
    for (int u = 0; u <= updates; u++) chart.x[u] = float(u);
    return chart;
}

// The wear row of the red prefix over the updates: one row per position, one
// column every `every` updates. In the terminal every fifth column and the last
// are labelled; in an SVG the column holding a round number of updates.
inline Heatmap wear_over_updates(const std::vector<Measurement>& history, const Example& red, int every, bool svg) {
    const int updates = int(history.size()) - 1, T = int(red.tokens.size());
    // A round number of updates, at least 1 (a short run's ticks are fractions).
    const int label_step = svg ? std::max(1, int(nice_ticks(0, updates)[1])) : every * 5;
    Heatmap h{
        "Attention row at wear (position 10) over the updates, red prefix", Matrix(T, updates / every + 1), {}, {}};
    h.lo = 0.0f, h.hi = 1.0f;
    if (svg) h.x_label = "update", h.y_label = "key position";
    for (int j = 0; j < T; j++) {
        h.row_labels.push_back(formatted("%d %s", j + 1, WORDS[red.tokens[j]]));
        for (int u = 0; u <= updates; u += every) h.values(j, u / every) = history[u].wear_row[j];
    }
    for (int u = 0; u <= updates; u += every) {
        const bool labelled = u % label_step < every || (!svg && u == updates);
        h.col_labels.push_back(labelled ? formatted("%d", u == updates && !svg ? u : u - u % label_step) : "");
    }
    return h;
}

// The wear row over the updates: about 21 columns in the terminal; with --svg,
// at most about 400 in wear_row.svg.
inline void show_wear_row(const std::vector<Measurement>& history, const Example& red, bool fancy,
                          const std::string& svg_dir) {
    const int updates = int(history.size()) - 1;
    const int every = updates >= 100 ? updates / 20 : 1;
    show(text_heatmap(wear_over_updates(history, red, every, false), fancy));
    std::printf("  (one column every %d updates)\n\n", every);
    if (svg_dir.empty()) return;
    const Heatmap wear = wear_over_updates(history, red, updates >= 400 ? updates / 400 : 1, true);
    write_svg(svg_dir, "wear_row.svg", svg_heatmap(wear, 600.0 / wear.values.cols, 24));
}

// A heatmap in the terminal with the range of its entries; with --svg, also as `file`.
inline void show_heatmap(const Heatmap& map, const char* file, const std::string& svg_dir) {
    float lo, hi;
    value_range(map.values.data, lo, hi);
    show(text_heatmap(map, fancy_output()));
    std::printf("  entries between %.2f and %.2f\n\n", lo, hi);
    if (!svg_dir.empty()) write_svg(svg_dir, file, svg_heatmap(map));
}
