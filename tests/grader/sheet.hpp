// tests/grader/sheet.hpp: a class's grade sheet, for gradetool sheet (grade_class.sh runs it).
//
//   gradetool sheet LIST POINTS OUT
//
// LIST has a line per student and exercise: "student TAB id TAB status TAB seed
// TAB folder", the folder holding that grading's keep/rows (empty where nothing
// was graded: missing, empty, two-files). POINTS has "id TAB test TAB points"
// lines, every exercise's tests in the grader's order. Writes OUT/grades.csv
// (RFC 4180, UTF-8), OUT/summary.txt (also printed) and OUT/summary.svg, each
// whole or not at all.
#pragma once
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sheet {

inline std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t tab = line.find('\t', start);
        parts.push_back(line.substr(start, tab - start));
        if (tab == std::string::npos) return parts;
        start = tab + 1;
    }
}

inline std::vector<std::vector<std::string>> table_of(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) rows.push_back(fields(line));
    }
    return rows;
}

// A file appears whole, or keeps what it held: written beside, then renamed.
inline bool write_whole(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out.flush()) return std::remove(tmp.c_str()), false;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) return std::remove(tmp.c_str()), false;
    return true;
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

inline std::string xml(const std::string& s) {
    std::string e;
    for (char c : s) e += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
    return e;
}

struct Line {  // one student's one exercise
    std::string student, id, status, seed;
    std::map<std::string, int> scores;  // test -> points earned, where it was graded
    int points = 0;
};

// The status a grading earns from its rows: the first row's message says when
// nothing ran, and a test stopped for time says timed-out.
inline std::string status_of(const std::vector<std::vector<std::string>>& rows) {
    if (rows.empty()) return "error";
    const std::string& first = rows[0][4];
    if (first.find("did not compile") != std::string::npos) return "did-not-compile";
    if (first.find("not one of the handout's files") != std::string::npos) return "bad-include";
    for (const auto& r : rows)
        if (r[4].find("still running after") != std::string::npos || r[4].find("seconds of CPU time") != std::string::npos)
            return "timed-out";
    return "graded";
}

inline int run(const char* list_path, const char* points_path, const std::string& out) {
    std::vector<std::string> ids;                                   // in the grader's order
    std::map<std::string, std::vector<std::pair<std::string, int>>> tests;  // id -> (test, points)
    for (const auto& f : table_of(points_path)) {
        if (f.size() != 3) return std::fprintf(stderr, "gradetool: %s: a line is not id, test, points\n", points_path), 2;
        if (!tests.count(f[0])) ids.push_back(f[0]);
        tests[f[0]].push_back({f[1], std::atoi(f[2].c_str())});
    }
    std::vector<std::string> columns;  // every exercise's tests, once each
    for (const std::string& id : ids)
        for (const auto& t : tests[id])
            if (std::find(columns.begin(), columns.end(), t.first) == columns.end()) columns.push_back(t.first);

    std::vector<Line> lines;
    for (const auto& f : table_of(list_path)) {
        if (f.size() != 5) return std::fprintf(stderr, "gradetool: %s: a line is not student, id, status, seed, folder\n", list_path), 2;
        Line l{f[0], f[1], f[2], f[3], {}, 0};
        if (!tests.count(l.id)) return std::fprintf(stderr, "gradetool: no tests listed for exercise %s\n", l.id.c_str()), 2;
        if (!f[4].empty() && l.status == "graded") {
            auto rows = table_of(f[4] + "/keep/rows");
            for (const auto& r : rows)
                if (r.size() != 6) rows.clear();
            l.status = status_of(rows);
            for (const auto& r : rows) {
                int s = std::atoi(r[1].c_str()), p = std::atoi(r[2].c_str());
                l.scores[r[0]] = s < 0 || s > p ? 0 : s;
                l.points += l.scores[r[0]];
            }
        }
        lines.push_back(l);
    }
    auto max_of = [&](const std::string& id) {
        int m = 0;
        for (const auto& t : tests[id]) m += t.second;
        return m;
    };

    std::string csv = "student,exercise,points,max_points,status,seed";
    for (const std::string& c : columns) csv += "," + csv_field(c);
    csv += "\r\n";
    for (const Line& l : lines) {
        csv += csv_field(l.student) + "," + csv_field(l.id) + "," + std::to_string(l.points) + "," +
               std::to_string(max_of(l.id)) + "," + l.status + "," + l.seed;
        for (const std::string& c : columns) {
            bool mine = false;
            for (const auto& t : tests[l.id]) mine = mine || t.first == c;
            csv += ",";
            if (mine && l.status != "missing" && l.status != "empty" && l.status != "two-files" && l.status != "error")
                csv += std::to_string(l.scores.count(c) ? l.scores.at(c) : 0);
        }
        csv += "\r\n";
    }

    // The summary: per exercise, how many handed in, the mean and median of
    // their points, and how many earned each total (missing files not counted).
    std::string text, svg_body;
    const int bar_width = 16, chart_height = 120, gap = 60;
    int x0 = 20, svg_width = 20;
    for (const std::string& id : ids) {
        std::vector<int> points;
        int missing = 0;
        for (const Line& l : lines)
            if (l.id == id) {
                if (l.status == "missing") missing++;
                else points.push_back(l.points);
            }
        const int max = max_of(id);
        std::sort(points.begin(), points.end());
        double mean = 0, median = 0;
        for (int p : points) mean += p;
        if (!points.empty()) {
            mean /= double(points.size());
            size_t n = points.size();
            median = n % 2 ? points[n / 2] : (points[n / 2 - 1] + points[n / 2]) / 2.0;
        }
        std::vector<int> count(size_t(max) + 1, 0);
        for (int p : points) count[size_t(std::min(std::max(p, 0), max))]++;
        int most = 1;
        for (int c : count) most = std::max(most, c);
        char head[200];
        std::snprintf(head, sizeof head, "Exercise %s: %zu handed in, %d missing; mean %.1f, median %.1f of %d points\n",
                      id.c_str(), points.size(), missing, mean, median, max);
        text += head;
        for (int p = max; p >= 0; p--) {
            char row[64];
            std::snprintf(row, sizeof row, "  %3d | %-3d ", p, count[size_t(p)]);
            text += row + std::string(size_t(count[size_t(p)] * 40 / most), '#') + "\n";
        }
        text += "\n";
        // One bar chart per exercise, side by side: a bar per total, its height the count.
        svg_body += "<g transform=\"translate(" + std::to_string(x0) + ",30)\">\n";
        svg_body += "<text x=\"0\" y=\"-10\" font-size=\"13\">" + xml(head).substr(0, xml(head).size() - 1) + "</text>\n";
        for (int p = 0; p <= max; p++) {
            int h = count[size_t(p)] * chart_height / most;
            int x = p * (bar_width + 2);
            svg_body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(chart_height - h) + "\" width=\"" +
                        std::to_string(bar_width) + "\" height=\"" + std::to_string(h) + "\" fill=\"#4a7ab5\"/>\n";
            if (count[size_t(p)] > 0)
                svg_body += "<text x=\"" + std::to_string(x + bar_width / 2) + "\" y=\"" + std::to_string(chart_height - h - 3) +
                            "\" font-size=\"10\" text-anchor=\"middle\">" + std::to_string(count[size_t(p)]) + "</text>\n";
            svg_body += "<text x=\"" + std::to_string(x + bar_width / 2) + "\" y=\"" + std::to_string(chart_height + 14) +
                        "\" font-size=\"10\" text-anchor=\"middle\">" + std::to_string(p) + "</text>\n";
        }
        svg_body += "<text x=\"0\" y=\"" + std::to_string(chart_height + 32) +
                    "\" font-size=\"11\">points (each bar: how many students earned that total)</text>\n</g>\n";
        int w = std::max((max + 1) * (bar_width + 2), 420);
        x0 += w + gap;
        svg_width = x0;
    }
    const std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(svg_width) +
                            "\" height=\"" + std::to_string(chart_height + 80) +
                            "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
                            svg_body + "</svg>\n";
    if (!write_whole(out + "/grades.csv", csv) || !write_whole(out + "/summary.txt", text) ||
        !write_whole(out + "/summary.svg", svg))
        return std::fprintf(stderr, "gradetool: cannot write in %s\n", out.c_str()), 2;
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace sheet
