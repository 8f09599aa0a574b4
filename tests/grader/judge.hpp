// tests/grader/judge.hpp: what the grader's own programs share (the student's never includes
// it): comparing results with the reference's, marking the student's text, a test's row, reading files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../common/cli.hpp"  // formatted, write_file_atomic (gradetool builds with no -I)

namespace judge {

// FNV-1a, 64 bits: the same hash on every machine, so the same seeds and output bytes.
inline uint64_t fnv1a(const std::string& s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

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

inline std::vector<std::vector<std::string>> table_of(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) rows.push_back(fields(line));
    }
    return rows;
}

// Text on one line, for a tab-separated field or a message: line breaks and tabs as spaces, at most `most` bytes.
// (cli.hpp's shown instead spells out every unprintable byte.)
inline std::string one_line(std::string s, size_t most = 40) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    return s.size() > most ? s.substr(0, most) + "..." : s;
}

// One test's result, from the checker's test process to the rows file, the report and the sheets: a line
// of six tab-separated fields, name, score, points, hidden, message, hint (row_line writes it, read_rows reads).
struct Row {
    std::string name;
    int score = 0, points = 0;
    bool hidden = false;  // it drew inputs from the seed: the student sees pass or fail, not the message
    std::string message, hint;
};
inline std::string row_line(const Row& r) {
    return formatted("%s\t%d\t%d\t%d\t", r.name.c_str(), r.score, r.points, r.hidden ? 1 : 0) +
           one_line(r.message, std::string::npos) + "\t" + one_line(r.hint, std::string::npos) + "\n";
}
// The rows of `text`, false when a line is not a row; a score outside 0 to its points reads as 0.
inline bool read_rows(const std::string& text, std::vector<Row>& rows) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::vector<std::string> f = fields(line);
        if (f.size() != 6) return false;
        Row r{f[0], std::atoi(f[1].c_str()), std::atoi(f[2].c_str()), f[3] == "1", f[4], f[5]};
        if (r.score < 0 || r.score > r.points) r.score = 0;
        rows.push_back(r);
    }
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

// Text the student's program produced, marked: shown on the terminal and to the teacher, never to
// the student on Gradescope, where it could carry a hidden input it kept; marks inside are dropped.
constexpr char THEIRS_BEGIN = '\x01', THEIRS_END = '\x02';
inline std::string theirs(const std::string& text) {
    std::string marked(1, THEIRS_BEGIN);
    for (char c : text)
        if (c != THEIRS_BEGIN && c != THEIRS_END) marked += c;
    return marked + THEIRS_END;
}
// The message with the marks taken out; for the student, the marked text too.
inline std::string unmarked(const std::string& message, bool for_student) {
    std::string out;
    bool inside = false;
    for (char c : message) {
        if (c == THEIRS_BEGIN) {
            inside = true;
            if (for_student) out += "(your program's text, not shown here)";
        } else if (c == THEIRS_END) inside = false;
        else if (!(inside && for_student)) out += c;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Numbers, entry by entry, by CS231n's rel_error with a floor of FLOOR times the block's largest
// entry: an entry zero in exact arithmetic carries the rounding of terms that size (README, "Tolerances").
constexpr double FLOOR = 1e-2;
constexpr double SMALLEST_SCALE = 1e-3;  // a block of zeros is compared as if of size 1e-3

// CS231n's rel_error: |a - b| / max(|a| + |b|, floor).
inline double rel_error(double a, double b, double floor = 1e-8) {
    double scale = std::fabs(a) + std::fabs(b);
    return std::fabs(a - b) / (scale > floor ? scale : floor);
}

struct Block {
    std::string label;
    int rows = 0, cols = 0;
    std::vector<double> values;
};

// "" when every block matches; else what differs.
inline std::string compare(double tolerance, const std::vector<Block>& want, const std::vector<Block>& got) {
    if (want.empty()) return "the reference printed no numbers (a grader bug)";
    for (const Block& w : want) {
        const Block* g = nullptr;
        for (const Block& b : got)
            if (b.label == w.label) g = &b;
        if (!g) return formatted("%s: none came back", w.label.c_str());
        if (g->values.empty() && !w.values.empty())
            return formatted("%s came back empty (%d x %d), want %d x %d: is its TODO still to do?", w.label.c_str(),
                             g->rows, g->cols, w.rows, w.cols);
        if (g->rows != w.rows || g->cols != w.cols || g->values.size() != w.values.size())
            return formatted("%s: %d x %d numbers, want %d x %d", w.label.c_str(), g->rows, g->cols, w.rows, w.cols);
        double scale = SMALLEST_SCALE;
        for (double b : w.values)
            if (std::isfinite(b)) scale = std::fmax(scale, std::fabs(b));
        const double floor = FLOOR * scale;
        double worst = 0;
        size_t at = 0;
        for (size_t k = 0; k < w.values.size(); k++) {
            double a = g->values[k], b = w.values[k];
            double e;
            if (a == b) e = 0;  // infinities and exact matches
            else if (std::isnan(a) || std::isinf(a) || std::isnan(b) || std::isinf(b)) e = INFINITY;
            else e = rel_error(a, b, floor);
            if (e > worst) worst = e, at = k;
        }
        if (worst > tolerance) {
            const size_t cols = size_t(std::max(w.cols, 1)), row = at / cols, col = at % cols;
            std::string shape = w.rows == 1 && w.cols == 1 ? ""
                                : w.rows == 1              ? formatted(" (1 x %d): entry %zu", w.cols, at)
                                              : formatted(" (%d x %d): entry (%zu, %zu)", w.rows, w.cols, row, col);
            const char* digits = tolerance == 0 ? "%.17g" : "%.6g";  // exact: whole numbers, printed in full
            const std::string yours = theirs(formatted(digits, g->values[at]));
            return formatted("%s%s is %s, want %s", w.label.c_str(), shape.c_str(), yours.c_str(),
                             formatted(digits, w.values[at]).c_str()) +
                   (tolerance == 0 ? "" : formatted(" (rel_error %.1e, tolerance %.0e)", worst, tolerance));
        }
    }
    return "";
}

// ---------------------------------------------------------------------------
// words: a printed output read as words and numbers, punctuation and spacing aside; a number
// matches to the precision of the less precise print (0.871 matches 0.8712, 98,304 98304).

struct Token {
    bool number = false;
    std::string text;
    double value = 0, step = 0;  // step: one unit in the last printed digit
    int line = 0;
};

inline bool digit(char c) { return c >= '0' && c <= '9'; }
inline bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || digit(c) || (unsigned char)c >= 0x80;
}

inline std::vector<Token> tokens(const std::string& s) {
    std::vector<Token> out;
    int line = 1;
    size_t i = 0, n = s.size();
    while (i < n) {
        char c = s[i];
        bool signed_number = (c == '+' || c == '-') && i + 1 < n &&
                             (digit(s[i + 1]) || (s[i + 1] == '.' && i + 2 < n && digit(s[i + 2])));
        if (digit(c) || signed_number || (c == '.' && i + 1 < n && digit(s[i + 1]))) {
            Token t;
            t.number = true;
            t.line = line;
            std::string plain;
            size_t j = i;
            if (s[j] == '+' || s[j] == '-') plain += s[j++];
            while (j < n && digit(s[j])) {
                plain += s[j++];
                // "98,304": a comma followed by exactly three digits groups thousands.
                if (j + 3 < n && s[j] == ',' && digit(s[j + 1]) && digit(s[j + 2]) && digit(s[j + 3]) &&
                    (j + 4 >= n || !digit(s[j + 4])))
                    j++;
            }
            int decimals = 0;
            if (j < n && s[j] == '.' && (j + 1 >= n || digit(s[j + 1]) || !word_char(s[j + 1]))) {
                plain += s[j++];
                while (j < n && digit(s[j])) plain += s[j++], decimals++;
            }
            int exponent = 0;
            if (j + 1 < n && (s[j] == 'e' || s[j] == 'E') &&
                (digit(s[j + 1]) || ((s[j + 1] == '+' || s[j + 1] == '-') && j + 2 < n && digit(s[j + 2])))) {
                size_t k = j + 1;
                std::string e;
                if (s[k] == '+' || s[k] == '-') e += s[k++];
                while (k < n && digit(s[k])) e += s[k++];
                exponent = std::atoi(e.c_str());
                plain += 'e' + e;
                j = k;
            }
            t.text = s.substr(i, j - i);
            t.value = std::strtod(plain.c_str(), nullptr);
            t.step = std::pow(10.0, exponent - decimals);
            out.push_back(t);
            i = j;
        } else if (word_char(c)) {
            Token t;
            t.line = line;
            size_t j = i;
            while (j < n && word_char(s[j])) j++;
            t.text = s.substr(i, j - i);
            // printf's infinity, "-inf" with its sign
            if (t.text == "inf" || t.text == "infinity" || t.text == "INF") {
                t.number = true;
                t.value = i > 0 && s[i - 1] == '-' ? -HUGE_VAL : HUGE_VAL;
            }
            out.push_back(t);
            i = j;
        } else {
            if (c == '\n') line++;
            i++;
        }
    }
    return out;
}

// An infinity matches a number of its sign beyond 1e30: a mask of -1e30 says -infinity.
constexpr double AS_INFINITE = 1e30;

inline bool same(const Token& a, const Token& b) {
    if (a.number != b.number) return false;
    if (!a.number) return a.text == b.text;
    if (std::isinf(a.value) || std::isinf(b.value))
        return (a.value > 0) == (b.value > 0) && std::fabs(a.value) >= AS_INFINITE && std::fabs(b.value) >= AS_INFINITE;
    double allowed = 0.5 * std::fmax(a.step, b.step) * (1 + 1e-9) + 1e-12 * std::fmax(std::fabs(a.value), 1.0);
    return std::fabs(a.value - b.value) <= allowed;
}

// "" when the two outputs read the same, else one line saying where they part.
inline std::string words(const std::string& reference, const std::string& student) {
    std::vector<Token> want = tokens(reference), got = tokens(student);
    size_t k = 0;
    for (; k < want.size() && k < got.size(); k++) {
        if (same(want[k], got[k])) continue;
        return formatted("line %d of your output: %s '%s' where the reference prints %s '%s' (its line %d)",
                         got[k].line, got[k].number ? "the number" : "the word", theirs(one_line(got[k].text)).c_str(),
                         want[k].number ? "the number" : "the word", one_line(want[k].text).c_str(), want[k].line);
    }
    if (k < want.size()) {
        return formatted("your output stops after %zu words and numbers; the reference goes on with '%s' (its line %d)",
                         k, one_line(want[k].text).c_str(), want[k].line);
    }
    if (k < got.size()) {
        return formatted("your output goes on after the reference's last word, with '%s' (your line %d)",
                         theirs(one_line(got[k].text)).c_str(), got[k].line);
    }
    return "";
}

}  // namespace judge
