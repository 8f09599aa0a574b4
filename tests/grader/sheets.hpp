// tests/grader/sheets.hpp: gradetool's sheets of a class, for grade_class.sh:
//
//   gradetool sheet LIST POINTS OUT [PLATFORM [ROSTER]]  grades.csv and the summary; moodle.csv or canvas.csv
//
// What each platform's importer reads, found in its source, is in tests/grader/README.md ("Grading a class").
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>
#include <sys/stat.h>

#include "../../common/plot.hpp"  // the SVG pieces
#include "roster.hpp"

namespace sheets {

// ---------------------------------------------------------------------------
// sheet: LIST has "student TAB id TAB status TAB seed TAB grading folder [TAB platform id TAB late]" lines,
// POINTS "id TAB test TAB points" lines; OUT gets grades.csv, summary.txt (also printed) and summary.svg.
// One student's one exercise; when: the end of its grading, in UTC.
struct Line {
    std::string student, id, status, seed, platform_id, late, when;
    std::map<std::string, int> scores;  // test -> points earned, where it was graded
    int points = 0;
};

// A grading's status: the first row's message says when nothing ran; a test stopped for time is timed-out.
inline std::string status_of(const std::vector<Row>& rows) {
    if (rows.empty()) return "error";
    const std::string& first = rows[0].message;
    if (first.find("the file is empty") != NONE) return "empty";
    if (first.find("did not compile") != NONE) return "did-not-compile";
    if (first.find("not one of the handout's files") != NONE) return "bad-include";
    for (const auto& r : rows)
        if (r.message.find("still running after") != NONE || r.message.find("seconds of CPU time") != NONE)
            return "timed-out";
    return "graded";
}

inline std::string modified_utc(const std::string& path) {  // "2026-12-04 15:01:23 UTC", as PHP's strtotime reads
    struct stat s;
    char text[40] = "";
    if (stat(path.c_str(), &s) == 0)
        std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&s.st_mtime));
    return text;
}

// Per exercise: how many handed in, the mean and median, and a histogram of the totals, as text and SVG.
inline void summary(const std::vector<std::string>& ids, const std::vector<Line>& lines,
                    std::map<std::string, int>& max_of, std::string& text, std::string& svg) {
    const int bar = 16, height = 120, gap = 60, top = 30;  // each histogram's bars start `top` down
    int x0 = 20;
    for (const std::string& id : ids) {
        std::vector<int> points;
        int missing = 0, unplaced = 0;  // a file that could not be placed is not a 0: the teacher places it
        for (const Line& l : lines) {
            if (l.id == id && l.status == "missing") missing++;
            else if (l.id == id && l.status == "unplaced") unplaced++;
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
        const std::string not_placed = unplaced ? formatted(", %d with a file not placed", unplaced) : "";
        const std::string head =
            formatted("Exercise %s: %zu handed in, %d missing%s; mean %.1f, median %.1f of %d points", id.c_str(),
                      points.size(), missing, not_placed.c_str(), mean, median, max);
        text += head + "\n";
        add_text(svg, x0, top - 10, head, "start", 0, 13);
        for (int p = max; p >= 0; p--) {
            const int c = count[size_t(p)], h = c * height / most, x = x0 + p * (bar + 2) + bar / 2;
            text += formatted("  %3d | %-3d ", p, c) + std::string(size_t(c * 40 / most), '#') + "\n";
            add_rect(svg, x - bar / 2, top + height - h, bar, h, "#4a7ab5");
            if (c > 0) add_text(svg, x, top + height - h - 3, std::to_string(c), "middle", 0, 10);
            add_text(svg, x, top + height + 14, std::to_string(p), "middle", 0, 10);
        }
        text += "\n";
        add_text(svg, x0, top + height + 32, "points (each bar: how many students earned that total)", "start", 0, 11);
        x0 += std::max((max + 1) * (bar + 2), 420) + gap;
    }
    svg = svg_open(x0, height + 80) + svg + "</svg>\n";
}

// ---------------------------------------------------------------------------
// The platforms' sheets: a row per student, the total over the export's exercises in one grade.
struct Student {
    std::string name, id, when;  // when: the end of their newest grading
    std::vector<const Line*> lines;
    const std::vector<std::string>* row = nullptr;  // theirs in the roster
};

// "20.5: 7/10 points (it did not compile)", a line per exercise; total is "" (left to the teacher) when one
// of them has no score: the grader could not grade it, or it was not placed.
inline std::string feedback(const Student& s, const std::vector<std::string>& ids, std::map<std::string, int>& max_of,
                            std::string& total) {
    static const std::map<std::string, std::string> why = {
        {"graded", ""},
        {"missing", " (nothing was handed in)"},
        {"empty", " (the file is empty)"},
        {"did-not-compile", " (it did not compile)"},
        {"timed-out", " (a test ran out of time)"},
        {"bad-include", " (it includes a file that is not one of the handout's)"}};
    std::string text;
    int sum = 0;
    bool whole = true;
    for (const std::string& id : ids) {
        const Line* l = nullptr;
        for (const Line* x : s.lines) l = x->id == id ? x : l;
        const std::string status = l ? l->status : "missing";
        text += text.empty() ? "" : "<br>\n";  // Moodle keeps feedback comments as HTML
        if (why.count(status))
            text += formatted("%s: %d/%d points", id.c_str(), l ? l->points : 0, max_of[id]) + why.at(status);
        else text += id + ": not graded (" + status + "), your teacher grades it", whole = false;
        if (l && l->late == "late") text += ", handed in late";
        sum += l ? l->points : 0;
    }
    total = whole ? std::to_string(sum) : "";
    return text;
}

// Which of the Canvas gradebook's assignments ("Name (id)") gets the total: ASSIGNMENT's, the only one, or
// the only one whose name holds every exercise's id; -1, and why, when none is.
inline int assignment_column(const Roster& r, const std::vector<std::string>& ids, std::string& problem) {
    const char* want = std::getenv("ASSIGNMENT");
    want = want && *want ? want : nullptr;
    std::vector<int> all, fit;
    std::string names;
    for (size_t k = r.info; k < r.header.size(); k++) {
        const std::string& h = r.header[k];
        const size_t open = h.rfind(" (");
        if (open == NONE || h.back() != ')' || !number(h.substr(open + 2, h.size() - open - 3))) continue;
        bool named = true;
        for (const std::string& id : ids) named = named && h.substr(0, open).find(id) != NONE;
        if (want ? h == want || h.substr(0, open) == want : named) fit.push_back(int(k));
        all.push_back(int(k)), names += (names.empty() ? "" : ", ") + h;
    }
    if (!want && all.size() == 1) return all[0];
    if (fit.size() == 1) return fit[0];
    problem = all.empty()
                  ? "the roster has no assignment (\"Name (id)\"): add it in Canvas and export the gradebook again"
              : want ? formatted("ASSIGNMENT '%s' is none of the roster's assignments: %s", want, names.c_str())
                     : "the roster has several assignments; name one with ASSIGNMENT=\"<its header>\": " + names;
    return -1;
}

inline std::string moodle_csv(const std::vector<Student>& students, const std::vector<std::string>& ids,
                              std::map<std::string, int>& max_of, int max_total, std::vector<std::string>& notes) {
    std::string csv =
        std::string("Identifier,Full name,Grade,Maximum Grade,Last modified (grade),Feedback comments") + CSV_END;
    for (const Student& s : students) {
        std::string total, text = feedback(s, ids, max_of, total);
        if (s.id.empty()) {
            notes.push_back("moodle.csv: " + s.name + " has no participant id: enter their grade in Moodle");
            continue;
        }
        csv += "Participant " + s.id + "," + csv_field(s.name) + "," + total + "," + std::to_string(max_total) + "," +
               s.when + "," + csv_field(text) + CSV_END;
    }
    return csv;
}

inline std::string canvas_csv(const std::vector<Student>& students, const std::vector<std::string>& ids,
                              std::map<std::string, int>& max_of, int max_total, const Roster* r, int at,
                              std::vector<std::string>& notes) {
    std::vector<std::string> head = {"Student", "ID", "SIS User ID", "SIS Login ID", "Section"};
    std::string name = "Exercises", points = std::to_string(max_total), csv;
    for (const std::string& id : ids) name += " " + id;
    if (std::getenv("ASSIGNMENT") && *std::getenv("ASSIGNMENT")) name = std::getenv("ASSIGNMENT");
    if (r) head.assign(r->header.begin(), r->header.begin() + long(r->info)), name = r->header[size_t(at)];
    if (r && !r->points.empty() && !r->points[size_t(at)].empty()) points = r->points[size_t(at)];
    std::string p = points;
    std::replace(p.begin(), p.end(), ',', '.');
    if (std::strtod(p.c_str(), nullptr) != max_total)
        notes.push_back(formatted("canvas.csv: '%s' is out of %s points in Canvas, the exercises' total is %d",
                                  name.c_str(), points.c_str(), max_total));
    for (const std::string& h : head) csv += csv_field(h) + ",";
    csv += csv_field(name) + CSV_END + "Points Possible" + std::string(head.size(), ',') + points + CSV_END;
    for (const Student& s : students) {
        std::vector<std::string> cells = {s.name, s.id};
        if (s.row) cells.assign(s.row->begin(), s.row->begin() + long(head.size()));
        cells.resize(head.size());
        std::string total;
        feedback(s, ids, max_of, total);
        for (const std::string& c : cells) csv += csv_field(c) + ",";
        csv += total + CSV_END;
    }
    return csv;
}

inline int sheet(const char* list_path, const char* points_path, const std::string& out, const std::string& platform,
                 const char* roster_path) {
    std::vector<std::string> ids, columns;  // the exercises in the grader's order; every test once
    std::map<std::string, std::vector<std::pair<std::string, int>>> tests;  // id -> (test, points)
    std::map<std::string, int> max_of;
    int max_total = 0;
    for (const auto& f : table_of(points_path)) {
        if (f.size() != 3)
            return std::fprintf(stderr, "gradetool: %s: a line is not id, test, points\n", points_path), 2;
        if (!tests.count(f[0])) ids.push_back(f[0]);
        tests[f[0]].push_back({f[1], std::atoi(f[2].c_str())});
        max_of[f[0]] += std::atoi(f[2].c_str()), max_total += std::atoi(f[2].c_str());
        if (std::find(columns.begin(), columns.end(), f[1]) == columns.end()) columns.push_back(f[1]);
    }
    std::vector<Line> lines;
    for (auto f : table_of(list_path)) {
        if (f.size() != 5 && f.size() != 7)
            return std::fprintf(stderr,
                                "gradetool: %s: a line is not student, id, status, seed, folder[, platform id, late]\n",
                                list_path),
                   2;
        f.resize(7);
        Line l{f[0], f[1], f[2], f[3], f[5], f[6], "", {}, 0};
        if (!tests.count(l.id))
            return std::fprintf(stderr, "gradetool: no tests listed for exercise %s\n", l.id.c_str()), 2;
        if (!f[4].empty() && l.status == "graded") {
            std::string text;
            std::vector<Row> rows;
            if (!read_text(f[4] + "/keep/rows", text) || !read_rows(text, rows)) rows.clear();
            l.status = status_of(rows), l.when = modified_utc(f[4] + "/status");
            for (const Row& r : rows) {
                l.scores[r.name] = r.score;
                l.points += r.score;
            }
        }
        lines.push_back(l);
    }
    Roster r;
    std::string problem = roster_path ? read_roster(roster_path, r) : "";
    if (problem.empty() && roster_path && platform != r.platform && platform != "folders")
        problem = std::string(roster_path) + " is " + r.platform + "'s roster, the export " + platform + "'s";
    if (!(platform.empty() || platform == "moodle" || platform == "canvas" || platform == "folders"))
        problem = "PLATFORM '" + platform + "' is none of moodle, canvas, folders";
    const int at = problem.empty() && roster_path && platform == "canvas" ? assignment_column(r, ids, problem) : 0;
    if (!problem.empty()) return std::fprintf(stderr, "gradetool: %s\n", problem.c_str()), 2;

    // The students in the list's order, then the roster's who are not in it (matched by id, else by name).
    std::vector<Student> students;
    std::string newest;
    for (const Line& l : lines) {
        auto s = std::find_if(students.begin(), students.end(), [&](const Student& x) { return x.name == l.student; });
        if (s == students.end())
            s = students.insert(students.end(), Student{l.student, l.platform_id, "", {}, nullptr});
        s->lines.push_back(&l), s->id = s->id.empty() ? l.platform_id : s->id;
        s->when = std::max(s->when, l.when), newest = std::max(newest, l.when);
    }
    for (size_t k = 0; k < r.rows.size(); k++) {
        auto s = std::find_if(students.begin(), students.end(),
                              [&](const Student& x) { return !x.id.empty() && x.id == r.ids[k]; });
        if (s == students.end())
            s = std::find_if(students.begin(), students.end(), [&](const Student& x) { return x.name == r.names[k]; });
        if (s == students.end()) s = students.insert(students.end(), Student{r.names[k], r.ids[k], "", {}, nullptr});
        s->row = &r.rows[k], s->id = s->id.empty() ? r.ids[k] : s->id;
    }
    std::map<std::string, std::string> id_of;  // the student's platform id, the roster's where the list has none
    for (Student& s : students) s.when = s.when.empty() ? newest : s.when, id_of[s.name] = s.id;  // none: the run's

    std::string csv = "student,id,late,exercise,points,max_points,status,seed";
    for (const std::string& c : columns) csv += "," + csv_field(c);
    csv += CSV_END;
    for (const Line& l : lines) {
        csv += csv_field(l.student) + "," + csv_field(id_of[l.student]) + "," + l.late + "," + csv_field(l.id) + "," +
               std::to_string(l.points) + "," + std::to_string(max_of[l.id]) + "," + l.status + "," + l.seed;
        const bool scored =
            l.status != "missing" && l.status != "empty" && l.status != "unplaced" && l.status != "error";
        for (const std::string& c : columns) {
            const bool mine =
                std::any_of(tests[l.id].begin(), tests[l.id].end(), [&](const auto& t) { return t.first == c; });
            csv += "," + (mine && scored ? std::to_string(l.scores.count(c) ? l.scores.at(c) : 0) : std::string());
        }
        csv += CSV_END;
    }
    std::vector<std::string> notes;
    const std::string name = platform == "moodle" ? "moodle.csv" : platform == "canvas" ? "canvas.csv" : "";
    const std::string platform_csv =
        platform == "moodle"   ? moodle_csv(students, ids, max_of, max_total, notes)
        : platform == "canvas" ? canvas_csv(students, ids, max_of, max_total, roster_path ? &r : nullptr, at, notes)
                               : "";
    std::string text, svg;
    summary(ids, lines, max_of, text, svg);
    write_file_atomic(out + "/grades.csv", csv);  // each whole, or gradetool stops with status 2
    write_file_atomic(out + "/summary.txt", text);
    write_file_atomic(out + "/summary.svg", svg);
    if (!name.empty()) write_file_atomic(out + "/" + name, platform_csv);
    std::fputs(text.c_str(), stdout);
    for (const std::string& n : notes) std::printf("%s\n", n.c_str());
    return 0;
}

}  // namespace sheets
