// tiny_1_Soft_Lookup.cpp: "A soft lookup": a query reads a little of every word, more of the ones that match.
// Book section: tiny.1
//
// The chapter's first demo: the dot product 2, 1 . 3, 0 = 6; four earlier
// words of the sentence as arrows of two made-up numbers each (their keys);
// the query for "small"; bars for the share it reads from each word; and the
// values with the mix it gets back. --interactive moves the query with the
// arrow keys, as the chapter's page lets you drag it. The chart, the pictures
// and --interactive are drawn by tiny_lookup_pictures.hpp.
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "matrix.hpp"                // Matrix, dot, softmax
#include "keys.hpp"                  // start_keys, read_key
#include "tiny_lookup_pictures.hpp"  // chart, bar, pair, lookup_svg, lookup_page, show_screen, move_query, parse_query
#include "tiny_pictures.hpp"         // picture_options, write_pictures

constexpr int WORDS = 4;  // earlier words of the sentence
constexpr int D = 2;      // numbers per arrow, so they fit on a flat chart

// Made up, as the chapter's are: chosen so each word points its own way.
const char* const word[WORDS] = {"bag", "fit", "car", "too"};
// One line per row of the matrix: the formatter would run the numbers together.
// clang-format off
const Matrix keys(WORDS, D, {
     2.0f,  0.5f,  // bag
    -1.5f,  1.5f,  // fit
     0.5f, -2.0f,  // car
    -1.0f, -1.0f,  // too
});
const Matrix values(WORDS, D, {
     1.0f,  2.0f,  // bag
    -2.0f,  1.0f,  // fit
     2.0f, -1.0f,  // car
    -1.0f, -2.0f,  // too
});
// clang-format on
const WordArrows arrows{word, keys, values};

struct Lookup {
    float score[WORDS];    // query . key, one per word
    float weights[WORDS];  // softmax of the scores: shares that add up to 1
    float found[D];        // the mix it takes away: the values, each scaled by its weight, added up
};

static Lookup soft_lookup(const float query[D]) {
    Lookup r;
    for (int w = 0; w < WORDS; w++) r.score[w] = r.weights[w] = dot(query, keys.row(w), D);
    softmax(r.weights, WORDS);
    for (int c = 0; c < D; c++) {
        r.found[c] = 0.0f;
        for (int w = 0; w < WORDS; w++) r.found[c] += r.weights[w] * values(w, c);
    }
    return r;
}

// What "small" reads at one query: the scores, the shares as bars, the mix.
static std::string report(const float query[D], const Style& style) {
    Lookup r = soft_lookup(query);
    std::string out =
        formatted("The query for \"small\" is %s.\n\n  word  key             score   share\n", pair(query).c_str());
    for (int w = 0; w < WORDS; w++)
        out += trim_right(formatted("  %-4s  %s  %6.2f  %5.1f%%  %s", word[w], pair(keys.row(w)).c_str(),
                                    double(r.score[w]) + 0.0, 100.0 * r.weights[w],
                                    bar(r.weights[w], style, WORD_COLOUR[w]).c_str())) +
               "\n";
    float total = 0.0f;
    for (int w = 0; w < WORDS; w++) total += r.weights[w];
    out += formatted("  the shares add up to %.1f%%\n\n  word  value           share x value\n", 100.0 * total);
    for (int w = 0; w < WORDS; w++) {
        float part[D] = {r.weights[w] * values(w, 0), r.weights[w] * values(w, 1)};
        out += formatted("  %-4s  %s  %s\n", word[w], pair(values.row(w)).c_str(), pair(part).c_str());
    }
    return out + formatted("  the mix \"small\" gets back:     %s\n", style.paint(pair(r.found), QUERY_COLOUR).c_str());
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: tiny_1_Soft_Lookup [--query X,Y] [--interactive] [--svg FILE] [--html FILE]\n\n"
    "\"A soft lookup\" (Paying attention): the dot product, then four earlier words of\n"
    "the sentence as arrows of two made-up numbers (their keys), and the query for\n"
    "\"small\". Prints the share the query reads from each word, the values, and the\n"
    "mix it gets back: for the default query, for the query pulled halfway in, and\n"
    "for the very middle, (0,0), where each word gets 25%.\n\n"
    "  --query X,Y     only this query, e.g. --query 1.5,-1.5 (each from -3 to 3)\n"
    "  --interactive   on a terminal: the arrow keys move the query and the bars\n"
    "                  redraw; 0 puts it in the middle; q (or Ctrl-C) quits\n"
    "  --svg FILE      also draw the query's lookup as an SVG picture: the keys and\n"
    "                  the query as arrows, the shares as bars, the values and the mix\n"
    "  --html FILE     also write a page with that picture, where dragging the query\n"
    "                  (or the arrow keys) moves it and the bars and the mix follow\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    std::string query_text = options.text("query", "");
    bool given_query = options.given("query");
    bool live = options.flag("interactive");
    const PictureFiles pictures = picture_options(options);
    options.done();

    float query[D] = {1.5f, -1.5f};  // toward "car": the word that fits "too small"
    if (given_query) parse_query(query_text, query);
    const Style style{fancy_output()};
    if (live) {
        start_keys("--interactive");  // the terminal is put back on every way out
        do show_screen(chart(arrows, query, style) + "\n" + report(query, style));
        while (move_query(read_key(), query));
        return 0;
    }

    // The dot product: pair by pair, then add.
    const float a[D] = {2.0f, 1.0f}, b[D] = {3.0f, 0.0f};
    std::printf("The dot product of 2, 1 and 3, 0: 2 x 3 + 1 x 0 = %g\n\n", dot(a, b, D));

    std::printf(
        "Four earlier words of the sentence as arrows. Their numbers are made up,\n"
        "two each so they fit on a flat chart; a real model learns them.\n\n");
    std::fputs(chart(arrows, query, style).c_str(), stdout);
    std::printf("\n%s", report(query, style).c_str());
    if (!given_query) {
        // Pulled in toward the middle, every score shrinks toward 0 and the shares even out.
        float halfway[D] = {query[0] / 2, query[1] / 2};
        std::printf("\nPulled halfway in toward the middle:\n%s", report(halfway, style).c_str());
        float middle[D] = {0.0f, 0.0f};
        std::printf("\nAt the very middle every score is 0:\n%s", report(middle, style).c_str());
    }
    const Lookup r = soft_lookup(query);
    write_pictures(
        pictures, [&] { return lookup_svg(arrows, query, r.weights, r.found); },
        [&] { return lookup_page(arrows, query, r.weights, r.found); });
    return 0;
}
