// tests/grader/similarity.cpp: which submissions of a class share code (similarity_match.hpp), as a CSV and a page
// (tests/grader/README.md, "Copies flagged"), checked by tests/checks/grader_similarity.sh and measured
// beside sim_c++ and Dolos by make bench (tests/bench/bench_similarity.sh).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../../common/plot.hpp"  // svg_escape
#include "judge.hpp"              // reading files, csv_field
#include "similarity_match.hpp"   // the fingerprints and the pairs

// ---------------------------------------------------------------------------
// The manifest

static std::string read_manifest(const char* manifest, std::vector<Document>& docs) {
    std::string text;
    if (!judge::read_text(manifest, text)) return formatted("cannot read the manifest %s", manifest);
    std::istringstream lines(text);
    std::string line;
    std::set<std::pair<std::string, std::string>> students;
    for (int number = 1; std::getline(lines, line); number++) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::vector<std::string> f = judge::fields(line);
        const std::string where = formatted("%s line %d: ", manifest, number);
        if (f.size() < 4 || f.size() > 5 || f[0].empty() || f[2].empty() || f[3].empty())
            return where + "want exercise<TAB>role<TAB>name<TAB>path[<TAB>answers], the first four not empty";
        Document d{f[0], f[1], f[2], f[3], "", {}, {}, {}, {}, 0, f.size() == 5 ? f[4] : "", {}, {}, {}};
        if (d.role != "base" && d.role != "reference" && d.role != "student")
            return where + "role '" + d.role + "' is not base, reference or student";
        if (d.role == "student" && (d.name == REFERENCE_NAME || !students.insert({d.exercise, d.name}).second))
            return where + "student '" + d.name + "' is named twice in exercise " + d.exercise;
        if (!judge::read_text(d.path, d.text)) return where + "cannot read " + d.path;
        docs.push_back(d);
    }
    if (students.empty()) return formatted("%s names no student", manifest);
    return "";
}

// ---------------------------------------------------------------------------
// The CSV, as the grade sheet's: RFC 4180

using judge::csv_field;

static std::string csv(const std::vector<Pair>& pairs) {
    std::string out =
        std::string("exercise,student_a,student_b,similarity,shared_lines,answers_differ") + judge::CSV_END;
    for (const Pair& p : pairs)
        out += csv_field(p.a->exercise) + "," + csv_field(p.a->name) + "," + csv_field(p.b_name) + "," +
               formatted("%.3f,%d,", p.similarity, p.shared_lines) +
               (p.answers_differ < 0 ? "" : formatted("%.3f", p.answers_differ)) + judge::CSV_END;
    return out;
}

// ---------------------------------------------------------------------------
// The page

constexpr int COLOURS = 8;  // regions cycle through the page's colours c0 .. c7

static const char* STYLE =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table.rank{border-collapse:collapse;margin-bottom:1em}"
    "table.rank td,table.rank th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".note{background:#fff6d5;border:1px solid #e0c060;padding:.6em 1em;max-width:60em}"
    ".pair{margin:2em 0;border-top:2px solid #888;padding-top:.5em}"
    ".sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1em}"
    ".side h4{margin:.2em 0}"
    "pre{font-size:12px;line-height:1.35;background:#fafafa;border:1px solid #ddd;padding:4px;"
    "tab-size:4;margin:0}"
    "pre span.l{display:block;white-space:pre-wrap;overflow-wrap:anywhere;padding-left:6.6em;text-indent:-6.6em}"
    "tr.flag td{background:#ffe3e3}"
    ".n{color:#999;display:inline-block;width:3.5em;text-align:right;margin-right:.6em;user-select:none}"
    ".r{display:inline-block;width:2.5em;font-weight:bold}"
    ".c0{background:#ffd6d6}.c1{background:#d6f0ff}.c2{background:#dff5d0}.c3{background:#f3dcff}"
    ".c4{background:#ffe8c2}.c5{background:#d0f5ef}.c6{background:#f7f3b0}.c7{background:#e2e2ff}"
    // On a phone: a table wider than the screen scrolls in its own box (its links first, on the screen), links
    // are a finger's size, and a pair's two sides stack (each file at the screen's width, long lines wrapped).
    ".wide{overflow-x:auto}td a{display:inline-block;min-height:24px;line-height:24px;white-space:nowrap}"
    "@media (max-width:700px){body{margin:.8em}.sides{grid-template-columns:minmax(0,1fr)}a.r{line-height:24px}}";

// One file, the lines of region r in colour r mod COLOURS, its number a link to the other side's.
static std::string side(const Document& d, const std::string& title, const std::vector<Region>& regions, bool is_a,
                        const std::string& id) {
    const int lines = int(std::count(d.text.begin(), d.text.end(), '\n')) + 1;
    std::vector<int> region_of(size_t(lines) + 1, -1);  // per line, from 1; -1 for none
    for (size_t r = 0; r < regions.size(); r++) {
        const size_t from = is_a ? regions[r].a_first : regions[r].b_first;
        const size_t to = (is_a ? regions[r].a_last : regions[r].b_last) + K - 1;
        // Its tokens' lines, and the few between two of them in a row: not all from the first to the last, as
        // a helper written where it is called puts tokens of two places of the file in one region.
        for (size_t t = from; t <= to && t < d.tokens.size(); t++) {
            const int line = d.tokens[t].line, previous = t > from ? d.tokens[t - 1].line : line;
            for (int l = line - previous > 0 && line - previous <= 3 ? previous : line; l <= line && l <= lines; l++)
                if (region_of[size_t(l)] < 0) region_of[size_t(l)] = int(r);
        }
    }
    std::vector<int> first_line(regions.size(), 0);  // where each region's number goes
    for (int l = lines; l >= 1; l--)
        if (region_of[size_t(l)] >= 0) first_line[size_t(region_of[size_t(l)])] = l;
    const char* here = is_a ? "a" : "b";
    const char* there = is_a ? "b" : "a";
    std::string out = "<div class=\"side\"><h4>" + svg_escape(title) + "</h4><pre>";
    std::istringstream text(d.text);
    std::string line;
    for (int l = 1; std::getline(text, line); l++) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        int r = region_of[size_t(l)];
        std::string label = "<span class=\"r\"></span>";
        if (r >= 0 && first_line[size_t(r)] == l)
            label = formatted("<a class=\"r\" id=\"%s-%s%d\" href=\"#%s-%s%d\">[%d]</a>", id.c_str(), here, r,
                              id.c_str(), there, r, r + 1);
        out += r >= 0 ? formatted("<span class=\"l c%d\">", r % COLOURS) : std::string("<span class=\"l\">");
        out += label + formatted("<span class=\"n\">%d</span>", l) + svg_escape(line) + "</span>";
    }
    return out + "</pre></div>";
}

// A pair is flagged when it stands out among its table's pairs: above their median by more than SPREADS
// times their spread (1.4826 times the median absolute deviation: the standard deviation, were the scores
// normal, that a few copies do not drag up). Never a fixed cut: what is high differs with the exercise.
constexpr double SPREADS = 3;
constexpr double LEAST_SPREAD = 0.05;  // when most pairs score alike, a hair above them is not enough

static double median(std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x.empty() ? 0 : (x[(x.size() - 1) / 2] + x[x.size() / 2]) / 2;
}

static double flag_line(const std::vector<const Pair*>& pairs) {
    std::vector<double> scores, deviations;
    for (const Pair* p : pairs) scores.push_back(p->similarity);
    const double middle = median(scores);
    for (double x : scores) deviations.push_back(std::fabs(x - middle));
    return middle + SPREADS * std::max(1.4826 * median(deviations), LEAST_SPREAD);
}

// The share of the pair's telling answers whose bits differ, as the page shows it.
static std::string differ(const Pair& p) {
    return p.answers_differ < 0 ? "-" : formatted("%.0f%%", 100 * p.answers_differ);
}

// One table of pairs (students', or each student's against the reference), the flagged ones side by side.
static std::string table(const std::vector<const Pair*>& mine, const std::string& id_prefix, const char* b_title,
                         std::string& details) {
    const double line = flag_line(mine);
    std::string out = formatted(
        "<p>Flagged: above %.3f, the median of these %zu pairs plus %.0f times their "
        "spread.</p>\n<div class=\"wide\"><table class=\"rank\"><tr><th>#</th><th></th><th>student a</th><th>%s</th>"
        "<th>similarity</th><th>shared lines of a</th><th>answers that differ</th></tr>\n",
        line, mine.size(), SPREADS, b_title);
    for (size_t k = 0; k < mine.size(); k++) {
        const Pair& p = *mine[k];
        const std::string id = id_prefix + formatted("%zu", k + 1);
        const bool flagged = p.similarity > line;
        out += formatted("<tr%s><td class=\"num\">%zu</td><td>", flagged ? " class=\"flag\"" : "", k + 1) +
               (flagged ? "<a href=\"#" + id + "\">side by side</a>" : std::string("&nbsp;")) + "</td><td>" +
               svg_escape(p.a->name) + "</td><td>" + svg_escape(p.b_name) +
               formatted("</td><td class=\"num\">%.3f</td><td class=\"num\">%d</td><td class=\"num\">%s</td></tr>\n",
                         p.similarity, p.shared_lines, differ(p).c_str());
        if (!flagged) continue;
        const std::vector<Region> regions = regions_of(*p.a, *p.b);
        details += "<div class=\"pair\" id=\"" + id + "\"><h3>" + svg_escape(p.a->exercise) + ": " +
                   svg_escape(p.a->name) + " and " + svg_escape(p.b_name) +
                   formatted(": %.3f, %d shared lines, %zu regions, answers that differ %s</h3>", p.similarity,
                             p.shared_lines, regions.size(), differ(p).c_str()) +
                   "<div class=\"sides\">" + side(*p.a, p.a->name, regions, true, id) +
                   side(*p.b, p.b_name, regions, false, id) + "</div></div>\n";
    }
    return out + "</table></div>\n";
}

static std::string page(const std::vector<Pair>& pairs, const std::vector<Document>& docs,
                        const std::vector<std::string>& exercises) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Similarity</title><style>" +
        std::string(STYLE) + "</style></head><body>\n<h1>Shared code between submissions</h1>\n";
    out += formatted(
        "<p class=\"note\"><b>A high score is a reason to look, not a verdict.</b> Correct answers to a short "
        "exercise look alike, and code handed out to everyone counts only in a tenth of the score. The rest is the "
        "smaller file's fingerprints (MOSS's winnowing: %d normalised tokens, window %d, and each statement) that "
        "the other file has too, each weighted by how few files of the exercise have it (that tenth: the share of "
        "the larger whole file's, handout code included); names, numbers, spacing "
        "and comments do not count, a for loop counts as its while loop, a macro or a type alias as what it "
        "stands for, an element read as an element, whichever container holds it, a helper called once "
        "(or one of a single expression) as its code written where it is called, and a temporary read once as "
        "its value. The grader's hidden tests add what the code computed: a disguise keeps the order in which "
        "a copy adds up, so it returns its original's answers to the last bit, where right answers written "
        "apart often differ there; four fifths of the share of answers whose bits differ (of those on which the "
        "exercise's files do not all agree) is taken off the score. A pair is "
        "flagged when it stands out among its exercise's pairs. Look at the marked code side by side before you "
        "decide anything.</p>\n",
        K, W);
    for (size_t e = 0; e < exercises.size(); e++) {
        std::vector<const Pair*> students, reference;
        for (const Pair& p : pairs)
            if (p.a->exercise == exercises[e]) (p.b->role == "reference" ? reference : students).push_back(&p);
        out += "<h2>Exercise " + svg_escape(exercises[e]) + "</h2>\n";
        std::string details;
        const std::string id = formatted("e%zu-", e + 1);
        if (students.empty()) out += "<p>No pairs of students: fewer than two.</p>\n";
        else out += table(students, id + "p", "student b", details);
        for (const Document& d : docs)  // a reference of next to no code of its own (20.3's calls the handout's)
            if (d.exercise == exercises[e] && d.role == "reference" && d.kept.size() < FEWEST / 8)
                out += formatted(
                    "<p class=\"note\">The reference solution is almost all the handout's own code "
                    "(%zu of its fingerprints are not the handout's): a copy of it cannot be told from "
                    "any other right answer, and its scores below say little.</p>\n",
                    d.kept.size());
        if (!reference.empty())
            out += "<h3>Each student against the reference solution</h3>\n" + table(reference, id + "r", "", details);
        out +=
            "<p>The same colour and number on both sides is the same shared code; click a number to jump "
            "across.</p>\n" +
            details;
    }
    return out + "</body></html>\n";
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: similarity MANIFEST OUT_CSV OUT_HTML\n"
    "MANIFEST: 'exercise<TAB>role<TAB>name<TAB>path' lines, role base (never counts), reference or\n"
    "student. OUT_CSV: every pair's similarity, highest first; OUT_HTML: the best pairs side by side.\n";

int main(int argc, char** argv) {
    name_program(argv[0]);  // cli.hpp's errors name it
    if (argc == 2 && std::string(argv[1]) == "--help") return std::fputs(USAGE, stdout), 0;
    if (argc != 4) return std::fputs(USAGE, stderr), 2;
    if (std::string(argv[2]) == argv[3])
        return std::fprintf(stderr, "similarity: OUT_CSV and OUT_HTML are the same file\n"), 2;
    std::vector<Document> docs;
    std::string error = read_manifest(argv[1], docs);
    if (!error.empty()) return std::fprintf(stderr, "similarity: %s\n", error.c_str()), 2;
    fingerprint(docs);
    read_all_answers(docs);
    std::vector<Pair> pairs = all_pairs(docs);
    std::set<std::string> names;
    for (const Document& d : docs) names.insert(d.exercise);
    write_file_atomic(argv[2], csv(pairs));  // each whole, or similarity stops with status 2
    write_file_atomic(argv[3], page(pairs, docs, std::vector<std::string>(names.begin(), names.end())));
    return 0;
}
