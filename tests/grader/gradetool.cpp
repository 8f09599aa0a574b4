// tests/grader/gradetool.cpp: the grader's small C++ helper (grade.sh builds it).
//
//   gradetool deps BOX DEPFILE SYSDIR...    1, naming it, when a file the compile read is outside
//   gradetool report ROWS HEADER [RESULTS]  the report and results.json; 0 at full marks, else 1
//   gradetool sheet LIST POINTS OUT [PLATFORM [ROSTER]]  a class's grade sheets and summary (sheets.hpp)
//   gradetool roster FILE                   a platform's roster: "platform id TAB full name" (roster.hpp)
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "judge.hpp"
#include "sheets.hpp"

// ---------------------------------------------------------------------------
// deps: the files a compile read, from its -MD output (make's syntax: "target: dep
// dep \", a space in a name "\ "), canonical, each under BOX/src or a system folder.

static bool under(const std::filesystem::path& file, const std::filesystem::path& dir) {  // both canonical
    return std::mismatch(dir.begin(), dir.end(), file.begin(), file.end()).first == dir.end();
}

static int deps(const char* box, const std::string& text, const std::vector<std::string>& system_dirs) {
    namespace fs = std::filesystem;
    std::vector<std::string> words;
    std::string word;
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) continue;
        if (c == '\\' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '#')) word += text[++i];
        else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') word += '$', i++;
        else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!word.empty()) words.push_back(word), word.clear();
        } else word += c;
    }
    if (!word.empty()) words.push_back(word);
    std::error_code e;
    const fs::path allowed = fs::canonical(fs::path(box) / "src", e);
    if (e) return std::printf("no folder %s/src\n", box), 2;
    std::vector<fs::path> dirs;
    for (const std::string& d : system_dirs) {
        fs::path p = fs::canonical(d, e);
        if (!e) dirs.push_back(p);
    }
    size_t k = 0, files = 0;
    while (k < words.size() && words[k].back() != ':') k++;  // past the target: "driver:", or "driver" ":"
    for (k++; k < words.size(); k++) {
        const std::string& w = words[k];
        if (w == ":") continue;
        files++;
        fs::path p = fs::path(w).is_absolute() ? fs::path(w) : fs::path(box) / "src" / "file" / w;
        fs::path real = fs::canonical(p, e);
        if (e) return std::printf("%s (a file that cannot be found)\n", w.c_str()), 1;
        bool ok = under(real, allowed);
        for (const fs::path& d : dirs) ok = ok || under(real, d);
        if (!ok) return std::printf("%s\n", w.c_str()), 1;
    }
    if (files == 0) return std::printf("(the compiler listed no files)\n"), 1;
    return 0;
}

// ---------------------------------------------------------------------------
// report: one total from the checker's rows makes the terminal's report and results.json, whose
// student sees no seed and no hidden test's message; the whole report is a hidden 0-point test.

using judge::Row;

static std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += char(c);
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) out += formatted("\\u%04x", c);
        else out += char(c);
    }
    return out + "\"";
}

// What the student sees of row k's message: none for a failed test on hidden inputs,
// or after one (the program may have kept a hidden input and put it in a later answer).
static std::string student_message(const std::vector<Row>& rows, size_t k) {
    const Row& r = rows[k];
    bool after_hidden = false;
    for (size_t j = 0; j < k; j++) after_hidden = after_hidden || rows[j].hidden;
    if (r.score < r.points && r.hidden) return "failed on inputs that are not shown";
    if (r.score < r.points && after_hidden)
        return "failed (its message is not shown, as it ran after tests on hidden inputs)";
    return judge::unmarked(r.message, true);
}

// No test ran (grade.sh's rows for an empty file, a failed compile, an include): one message, no hints.
static bool whole_file(const std::vector<Row>& rows) {
    for (const Row& r : rows)
        if (r.score != 0 || !r.hint.empty() || r.message != rows[0].message) return false;
    return true;
}

static std::string report(const std::vector<Row>& rows, const std::string& header, int total, int max_total,
                          bool for_student) {
    std::string text, line;
    for (std::istringstream lines(header); std::getline(lines, line);)
        if (!(for_student && line.compare(0, 5, "Seed ") == 0)) text += line + "\n";
    if (whole_file(rows)) {
        std::string said = rows[0].message;
        if (!said.empty()) said[0] = char(std::toupper(static_cast<unsigned char>(said[0])));
        return text + formatted("\n%d/%d points\n", total, max_total) + said + "\n";
    }
    text += formatted("\n  %-30s %-7s %s\n", "test", "points", "message");
    for (size_t k = 0; k < rows.size(); k++)
        text += formatted("  %-30s %-7s %s\n", rows[k].name.c_str(),
                          (std::to_string(rows[k].score) + "/" + std::to_string(rows[k].points)).c_str(),
                          (for_student ? student_message(rows, k) : judge::unmarked(rows[k].message, false)).c_str());
    text += formatted("\n%d/%d points\n", total, max_total);
    std::string hints;
    for (const Row& r : rows)
        if (r.score < r.points && !r.hint.empty()) hints += "  " + r.name + ": " + r.hint + "\n";
    return text + (hints.empty() ? "" : "\nHints:\n" + hints);
}

static int report_and_json(const std::string& rows_text, const std::string& header, const char* out_path) {
    std::vector<Row> rows;
    if (!judge::read_rows(rows_text, rows)) {
        std::printf("gradetool: a row is not name, score, points, hidden, message, hint\n");
        return 2;
    }
    int total = 0, max_total = 0;
    for (const Row& r : rows) {
        total += r.score;
        max_total += r.points;
    }
    if (rows.empty()) return std::printf("gradetool: no rows\n"), 2;
    const std::string full = report(rows, header, total, max_total, false);
    std::fputs(full.c_str(), stdout);
    const int status = total == max_total ? 0 : 1;
    if (!out_path) return status;
    std::string json = formatted("{\n  \"score\": %d,\n  \"output\": ", total) +
                       json_string(report(rows, header, total, max_total, true)) +
                       ",\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  \"tests\": [\n";
    for (size_t k = 0; k < rows.size(); k++) {
        const Row& r = rows[k];
        std::string m = student_message(rows, k);
        if (r.score < r.points && !r.hint.empty()) m += "\nHint: " + r.hint;
        json += formatted(
            "    {\"name\": %s, \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"output\": %s, "
            "\"visibility\": \"visible\"},\n",
            json_string(r.name).c_str(), r.score, r.points, r.score >= r.points ? "passed" : "failed",
            json_string(m).c_str());
    }
    json +=
        "    {\"name\": \"For the teacher: the whole report, with the seed and every message\", \"score\": 0, "
        "\"max_score\": 0, \"status\": \"passed\", \"output\": " +
        json_string(full) + ", \"visibility\": \"hidden\"}\n  ]\n}\n";
    write_file_atomic(out_path, json);  // whole, or gradetool stops with status 2
    return status;
}

int main(int argc, char** argv) {
    name_program(argv[0]);  // cli.hpp's errors name it
    using judge::read_text;
    std::string a, b, command = argc > 1 ? argv[1] : "";
    if (command == "deps" && argc >= 4) {
        if (!read_text(argv[3], a)) return std::printf("(the compiler wrote no list of the files it read)\n"), 1;
        return deps(argv[2], a, std::vector<std::string>(argv + 4, argv + argc));
    }
    if (command == "report" && (argc == 4 || argc == 5)) {
        if (!read_text(argv[2], a) || !read_text(argv[3], b)) {
            std::fprintf(stderr, "gradetool: cannot read the rows\n");
            return 2;
        }
        return report_and_json(a, b, argc == 5 ? argv[4] : nullptr);
    }
    if (command == "sheet" && argc >= 5 && argc <= 7)
        return sheets::sheet(argv[2], argv[3], argv[4], argc > 5 ? argv[5] : "", argc > 6 ? argv[6] : nullptr);
    if (command == "roster" && argc == 3) return sheets::roster(argv[2]);
    std::fputs(
        "usage: gradetool deps BOX DEPFILE SYSDIR... | report ROWS HEADER [RESULTS] | "
        "sheet LIST POINTS OUT [PLATFORM [ROSTER]] | roster FILE\n",
        stderr);
    return 2;
}
