// tests/grader/sheet.hpp: the files gradetool and similarity read and write (a
// tab-separated table, a CSV field, a file written whole), and a class's grade
// sheet: gradetool sheet LIST POINTS OUT (grade_class.sh runs it).
//
// LIST: "student TAB id TAB status TAB seed TAB folder" a line, the folder
// holding that grading's keep/rows (empty where nothing was graded). POINTS:
// "id TAB test TAB points" lines, each exercise's tests in the grader's order.
// Writes OUT/grades.csv, OUT/summary.txt (also printed) and OUT/summary.svg.
#pragma once
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sheet {

inline bool read_text(const std::string& path, std::string& text) {
    std::error_code e;
    std::ifstream in(path, std::ios::binary);
    if (!std::filesystem::is_regular_file(path, e) || !in) return false;
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
    return !in.bad();
}

inline std::vector<std::string> fields(const std::string& line, char separator = '\t') {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        size_t end = line.find(separator, start);
        parts.push_back(line.substr(start, end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

// The lines of a file (CR LF or LF), each split at its tabs; blank lines left out.
inline std::vector<std::vector<std::string>> table_of(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::string text, line;
    read_text(path, text);
    std::istringstream in(text);
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

// RFC 4180: a field with a comma, a quote or a line break quoted, its quotes doubled; rows end in CR LF.
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
constexpr const char* CSV_END = "\r\n";

// Text for HTML or SVG: its five special characters escaped.
inline std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s)
        out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : c == '\'' ? "&#39;"
                                                                                                    : std::string(1, c);
    return out;
}

struct Line {  // one student's one exercise
    std::string student, id, status, seed;
    std::map<std::string, int> scores;  // test -> points earned, where it was graded
    int points = 0;
};

// A grading's status: the first row's message says when nothing ran; a test stopped for time is timed-out.
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

// Per exercise: how many handed in, the mean and median, and a histogram of the totals, as text and SVG.
inline void summary(const std::vector<std::string>& ids, const std::vector<Line>& lines,
                    std::map<std::string, int>& max_of, std::string& text, std::string& svg) {
    const int bar = 16, height = 120, gap = 60;
    int x0 = 20;
    for (const std::string& id : ids) {
        std::vector<int> points;
        int missing = 0;
        for (const Line& l : lines) {
            if (l.id == id && l.status == "missing") missing++;
            else if (l.id == id) points.push_back(l.points);
        }
        const int max = max_of[id];
        std::sort(points.begin(), points.end());
        double mean = 0, median = 0;
        for (int p : points) mean += p;
        if (!points.empty()) {
            const size_t n = points.size();
            mean /= double(n);
            median = n % 2 ? points[n / 2] : (points[n / 2 - 1] + points[n / 2]) / 2.0;
        }
        std::vector<int> count(size_t(max) + 1, 0);
        for (int p : points) count[size_t(std::min(std::max(p, 0), max))]++;
        const int most = std::max(1, *std::max_element(count.begin(), count.end()));
        char head[200], row[64];
        std::snprintf(head, sizeof head, "Exercise %s: %zu handed in, %d missing; mean %.1f, median %.1f of %d points",
                      id.c_str(), points.size(), missing, mean, median, max);
        text += std::string(head) + "\n";
        svg += "<g transform=\"translate(" + std::to_string(x0) + ",30)\">\n<text x=\"0\" y=\"-10\" font-size=\"13\">" +
               escaped(head) + "</text>\n";
        for (int p = max; p >= 0; p--) {
            const int c = count[size_t(p)], h = c * height / most, x = p * (bar + 2) + bar / 2;
            std::snprintf(row, sizeof row, "  %3d | %-3d ", p, c);
            text += row + std::string(size_t(c * 40 / most), '#') + "\n";
            svg += "<rect x=\"" + std::to_string(x - bar / 2) + "\" y=\"" + std::to_string(height - h) + "\" width=\"" +
                   std::to_string(bar) + "\" height=\"" + std::to_string(h) + "\" fill=\"#4a7ab5\"/>\n";
            if (c > 0)
                svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(height - h - 3) +
                       "\" font-size=\"10\" text-anchor=\"middle\">" + std::to_string(c) + "</text>\n";
            svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(height + 14) +
                   "\" font-size=\"10\" text-anchor=\"middle\">" + std::to_string(p) + "</text>\n";
        }
        text += "\n";
        svg += "<text x=\"0\" y=\"" + std::to_string(height + 32) +
               "\" font-size=\"11\">points (each bar: how many students earned that total)</text>\n</g>\n";
        x0 += std::max((max + 1) * (bar + 2), 420) + gap;
    }
    svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(x0) + "\" height=\"" +
          std::to_string(height + 80) + "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" " +
          "fill=\"white\"/>\n" + svg + "</svg>\n";
}

inline int run(const char* list_path, const char* points_path, const std::string& out) {
    std::vector<std::string> ids, columns;  // the exercises in the grader's order; every test once
    std::map<std::string, std::vector<std::pair<std::string, int>>> tests;  // id -> (test, points)
    std::map<std::string, int> max_of;
    for (const auto& f : table_of(points_path)) {
        if (f.size() != 3) return std::fprintf(stderr, "gradetool: %s: a line is not id, test, points\n", points_path), 2;
        if (!tests.count(f[0])) ids.push_back(f[0]);
        tests[f[0]].push_back({f[1], std::atoi(f[2].c_str())});
        max_of[f[0]] += std::atoi(f[2].c_str());
        if (std::find(columns.begin(), columns.end(), f[1]) == columns.end()) columns.push_back(f[1]);
    }
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

    std::string csv = "student,exercise,points,max_points,status,seed";
    for (const std::string& c : columns) csv += "," + csv_field(c);
    csv += CSV_END;
    for (const Line& l : lines) {
        csv += csv_field(l.student) + "," + csv_field(l.id) + "," + std::to_string(l.points) + "," +
               std::to_string(max_of[l.id]) + "," + l.status + "," + l.seed;
        const bool scored = l.status != "missing" && l.status != "empty" && l.status != "two-files" && l.status != "error";
        for (const std::string& c : columns) {
            bool mine = false;
            for (const auto& t : tests[l.id]) mine = mine || t.first == c;
            csv += ",";
            if (mine && scored) csv += std::to_string(l.scores.count(c) ? l.scores.at(c) : 0);
        }
        csv += CSV_END;
    }
    std::string text, svg;
    summary(ids, lines, max_of, text, svg);
    if (!write_whole(out + "/grades.csv", csv) || !write_whole(out + "/summary.txt", text) ||
        !write_whole(out + "/summary.svg", svg))
        return std::fprintf(stderr, "gradetool: cannot write in %s\n", out.c_str()), 2;
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace sheet
