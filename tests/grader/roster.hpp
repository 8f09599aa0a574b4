// tests/grader/roster.hpp: a class's roster read as Moodle or Canvas exports it (gradetool roster FILE,
// and gradetool sheet's ROSTER): CSV as the platforms write it, the students known by each file's header.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "judge.hpp"

namespace sheets {
using namespace judge;  // its file helpers
using Table = std::vector<std::vector<std::string>>;
constexpr size_t NONE = std::string::npos;

// A CSV file as the platforms write it: UTF-8 with or without a BOM, rows ending in CR LF or LF, a quoted
// field holding commas, doubled quotes or line breaks; ';' between fields when the header has more of them
// than commas (Canvas's export where 7,5 is a number). "" when read, else what is wrong.
inline std::string parse_csv(std::string text, Table& rows) {
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    const std::string head = text.substr(0, text.find('\n'));
    const char separator =
        std::count(head.begin(), head.end(), ';') > std::count(head.begin(), head.end(), ',') ? ';' : ',';
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, inside = false;  // the field began with a quote; we are between its quotes
    size_t line = 1, opened = 0;
    auto end_row = [&] {
        row.push_back(field);
        if (row.size() > 1 || !row[0].empty() || quoted) rows.push_back(row);  // a blank line is no row
        row.clear(), field.clear(), quoted = false;
    };
    for (size_t i = 0; i < text.size(); i++) {
        const char c = text[i];
        const bool crlf = c == '\r' && i + 1 < text.size() && text[i + 1] == '\n';
        if (c == '\n') line++;
        if (inside) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', i++;
            else if (c == '"') inside = false;
            else if (!crlf) field += c;
        } else if (c == '"') {
            if (quoted || !field.empty())
                return formatted("line %zu: a quote inside a field (RFC 4180 quotes whole fields)", line);
            quoted = inside = true, opened = line;
        } else if (c == separator) {
            row.push_back(field), field.clear(), quoted = false;
        } else if (c == '\n' || (c == '\r' && !crlf)) {
            end_row();
        } else if (!crlf) {
            if (quoted) return formatted("line %zu: text after a quoted field's closing quote", line);
            field += c;
        }
    }
    if (inside) return formatted("the quote opened on line %zu is never closed", opened);
    if (!field.empty() || !row.empty() || quoted) end_row();
    return "";
}

inline int column(const std::vector<std::string>& header, const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    return at == header.end() ? -1 : int(at - header.begin());
}
inline bool number(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == NONE; }
inline std::string lower(std::string s) {
    for (char& c : s) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}
inline std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == NONE ? "" : s.substr(a, b - a + 1);
}

// ---------------------------------------------------------------------------
// roster: the students a platform lists, read from its own download, known by its header.
struct Roster {
    std::string platform;                 // "moodle" or "canvas"
    std::vector<std::string> header;      // the file's first row
    Table rows;                           // each student's row, as the file has it
    std::vector<std::string> ids, names;  // each student's platform id ("" where the file has none), full name
    std::vector<std::string> points;      // Canvas's "Points Possible" row, where it has one
    size_t info = 0;                      // Canvas: the columns to Section, which say who the student is
};

// Canvas writes a row of "Muted" (or "Manual Posting") under the header; its importer skips it.
inline bool canvas_note_row(const std::vector<std::string>& row) {
    for (const std::string& cell : row) {
        const std::string c = lower(trimmed(cell));
        if (!c.empty() && c != "muted" && c.compare(0, 14, "manual posting") != 0) return false;
    }
    return true;
}

inline std::string read_roster(const std::string& path, Roster& r) {
    std::string text;
    Table rows;
    if (!read_text(path, text)) return path + ": no such file, or it cannot be read";
    std::string problem = parse_csv(text, rows);
    if (!problem.empty()) return path + ": " + problem;
    if (rows.empty()) return path + ": the file is empty";
    const std::vector<std::string>& h = r.header = rows[0];
    const int identifier = column(h, "Identifier"), full = column(h, "Full name"), first = column(h, "First name"),
              last = column(h, "Last name"), section = column(h, "Section");
    // Canvas's importer knows its gradebook by "Student" and "ID" in the first two columns.
    if (h.size() > 3 && h[0].find("Student") != NONE && h[1].find("ID") != NONE && section > 1)
        r.platform = "canvas", r.info = size_t(section) + 1;
    else if (identifier >= 0 || (first >= 0 && last >= 0)) r.platform = "moodle";
    else
        return path +
               ": no roster's header: Moodle's grading worksheet (Identifier, Full name, ...), its participants "
               "(First name, Last name, ...) or Canvas's gradebook (Student, ID, ..., Section, ...)";
    for (size_t k = 1; k < rows.size(); k++) {
        const std::vector<std::string>& row = rows[k];
        if (row.size() != h.size())
            return formatted("%s: row %zu has %zu fields, the header %zu", path.c_str(), k + 1, row.size(), h.size());
        std::string id, name;
        if (r.platform == "canvas") {
            if (row[0].find("Points Possible") != NONE) r.points = row;
            if (row[0].find("Points Possible") != NONE || canvas_note_row(row)) continue;
            id = row[1], name = row[0];
            if (name.size() > 3 && name.compare(0, 2, "=\"") == 0 && name.back() == '"')
                name = name.substr(2, name.size() - 3);
            if (name == "Test Student" || name == "Student, Test") continue;  // Student View's test student
            if (!number(id))
                return formatted("%s: row %zu: ID '%s' is not a Canvas user id", path.c_str(), k + 1, id.c_str());
        } else if (identifier >= 0) {
            const std::string& v = row[size_t(identifier)];  // "Participant 2104511"
            const size_t digits = v.find_last_not_of("0123456789");
            id = v.substr(digits == NONE ? 0 : digits + 1);
            if (id.empty())
                return formatted("%s: row %zu: Identifier '%s' is not 'Participant <number>'", path.c_str(), k + 1,
                                 v.c_str());
            name = full >= 0 ? row[size_t(full)] : "";
        } else {
            name = trimmed(row[size_t(first)] + " " + row[size_t(last)]);
        }
        for (char& c : name) c = c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
        r.rows.push_back(row), r.ids.push_back(id), r.names.push_back(name);
    }
    if (r.rows.empty()) return path + ": no student in it";
    return "";
}

inline int roster(const char* path) {
    Roster r;
    const std::string problem = read_roster(path, r);
    if (!problem.empty()) return std::fprintf(stderr, "gradetool: %s\n", problem.c_str()), 2;
    for (size_t k = 0; k < r.rows.size(); k++) std::printf("%s\t%s\n", r.ids[k].c_str(), r.names[k].c_str());
    return 0;
}

}  // namespace sheets
