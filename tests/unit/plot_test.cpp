// tests/unit/plot_test.cpp: common/plot.hpp against results worked out by hand.
#include <string>

#include "check.hpp"
#include "plot.hpp"

static bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

int main() {
    // Ticks: 1, 2 or 5 times a power of ten, covering the range.
    std::vector<double> t = nice_ticks(0.0, 2.84);
    check(t.size() == 6 && t[0] == 0.0 && t[1] == 0.5 && t[5] == 2.5, "nice_ticks(0, 2.84) = 0, 0.5, ..., 2.5");
    t = nice_ticks(0.0, 200.0);
    check(t.size() == 5 && t[1] == 50.0 && t[4] == 200.0, "nice_ticks(0, 200) = 0, 50, ..., 200");

    check(svg_escape("a<b & c>d") == "a&lt;b &amp; c&gt;d", "svg_escape");
    check(svg_colour({255, 0, 16}) == "#ff0010", "svg_colour");
    // Diverging scale: white at 0, the ends at -max|v| and +max|v|.
    check(heat_position(0.0f, -1.0f, 2.0f, true) == 0.5f && heat_position(2.0f, -1.0f, 2.0f, true) == 1.0f,
          "heat_position is symmetric about 0 for signed data");

    // A 2x2 heatmap from 0 to 1, drawn plain: level floor(10 v) of " .:-=+*#%@", so 0 is ' ', 1 is '@',
    // 0.5 is '+' (level 5) and 0.25 is ':' (level 2).
    Heatmap h{"H", Matrix(2, 2, {0.0f, 1.0f, 0.5f, 0.25f}), {"a", "bb"}, {"x", "y"}};
    std::string plain = text_heatmap(h, false);
    check(contains(plain, "   a |  @@|\n"), "plain heatmap row a");
    check(contains(plain, "  bb |++::|\n"), "plain heatmap row bb");
    check(contains(plain, "\n      x y\n"), "plain heatmap column labels under their columns");

    // A rising line: the first column at the bottom row, the last at the top.
    LineChart c{"L", "x", "y", {0, 1, 2, 3}, {{"up", {0, 1, 2, 3}}}};
    std::string chart = text_line_chart(c, false, 4, 4);
    check(contains(chart, "  3 |   *\n") && contains(chart, "  0 |*\n"),
          "plain line chart puts the ends in the corners");
    check(contains(chart, "* up"), "plain line chart legend");
    std::string svg = svg_line_chart(c);
    check(contains(svg, "<svg xmlns=") && contains(svg, ">up</text>") && contains(svg, "</svg>"),
          "SVG line chart is a whole document with a legend");
    std::string svg_h = svg_heatmap(h);
    check(contains(svg_h, ">bb</text>") && contains(svg_h, "fill=\"#2166ac\""),
          "SVG heatmap: labels and the top colour");
    return check_summary("plot_test");
}
