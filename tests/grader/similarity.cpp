// tests/grader/similarity.cpp: which submissions of a class share code, by MOSS's winnowing
// (tests/grader/README.md, "Copies flagged"). A margin below is the lowest copy's score less the
// highest independent pair's on class/similarity/ (tests/checks/grader_similarity.sh).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "judge.hpp"  // say, reading and writing files, csv_field, escaped

// K tokens a fingerprint, the smallest of each W: of K = 8..20 and W = 4..8 these did best on tiny.2 (+0.17).
constexpr int K = 12;
constexpr int W = 6;
// A nearly empty file sharing two fingerprints is no 100% copy: fewer count as this many.
constexpr size_t FEWEST = 20;
constexpr double DETAIL_LEAST = 0.3;
constexpr size_t DETAIL_MOST = 20;
const char* const REFERENCE_NAME = "(reference solution)";

// ---------------------------------------------------------------------------
// Tokens

struct Token {
    std::string text;  // after normalisation: a keyword, an operator, V, N, S, LOOP
    int line;          // where it stands in the file, from 1
};

static bool name_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
static bool name_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Names kept as they are: a student cannot rename them, and they say what the code does.
static const std::set<std::string>& kept_names() {
    static const std::set<std::string> names = {
        "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "break", "case", "catch", "char",
        "class", "compl", "continue", "decltype", "default", "delete", "else", "enum", "explicit", "export",
        "extern", "false", "friend", "goto", "if", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
        "operator", "or", "or_eq", "private", "protected", "public", "return", "sizeof", "static_assert",
        "static_cast", "dynamic_cast", "const_cast", "reinterpret_cast", "struct", "switch", "template", "this",
        "throw", "true", "try", "typedef", "typeid", "typename", "union", "using", "virtual", "void", "xor",
        "xor_eq", "wchar_t", "char16_t", "char32_t",
        "vector", "string", "array", "pair", "map", "set", "sqrt", "exp", "log", "pow", "fabs", "abs", "max", "min",
        "swap", "fill", "copy", "sort", "accumulate", "inner_product", "tanh", "printf", "fprintf", "snprintf",
        "puts", "cout", "cerr", "endl", "size", "data", "push_back", "emplace_back", "resize", "assign", "begin",
        "end", "at", "front", "back", "empty", "clear", "memset", "memcpy", "assert", "numeric_limits", "infinity",
        "move", "make_pair", "first", "second", "isnan", "isfinite", "nullptr_t"};
    return names;
}

static std::string normalised(const std::string& raw) {
    static const std::set<std::string> dropped = {
        // separators: where they go changes with a loop's form and brace style
        "(", ")", "{", "}", ";", "::",
        // qualifiers a copier adds or removes freely
        "const", "constexpr", "static", "inline", "volatile", "register", "mutable", "std"};
    static const std::set<std::string> types = {"float", "double", "int", "long", "short", "unsigned", "signed",
                                                "size_t", "auto", "int64_t", "int32_t", "uint64_t", "uint32_t"};
    if (dropped.count(raw)) return "";
    if (raw == "for" || raw == "while" || raw == "do") return "LOOP";
    // float turned into double, int into size_t: the same code (0.03 of tiny.2's margin)
    if (types.count(raw)) return "TYPE";
    if (name_start(raw[0]) && !kept_names().count(raw)) return "V";
    return raw;
}

static std::vector<Token> raw_tokens(const std::string& s) {
    static const char* const operators[] = {">>=", "<<=", "<=>", "...", "->*", "::", "->", "++", "--", "<<", ">>",
                                            "<=",  ">=",  "==",  "!=",  "&&",  "||", "+=", "-=", "*=", "/=", "%=",
                                            "&=",  "|=",  "^=",  ".*",  "##"};
    std::vector<Token> out;
    int line = 1;
    bool line_start = true;  // only spaces since the last newline: a '#' starts a directive
    size_t i = 0, n = s.size();
    auto skip_to_line_end = [&] {
        while (i < n && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') i++, line++;
            i++;
        }
    };
    auto quoted = [&](char quote) {  // from the opening quote past the closing one (or the line's end)
        for (i++; i < n && s[i] != quote && s[i] != '\n'; i++)
            if (s[i] == '\\' && i + 1 < n) {
                if (s[i + 1] == '\n') line++;
                i++;
            }
        if (i < n && s[i] == quote) i++;
    };
    while (i < n) {
        unsigned char c = s[i];
        if (c == '\n') { line++, i++, line_start = true; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { i++; continue; }
        if (c == '\\' && i + 1 < n && s[i + 1] == '\n') { i += 2, line++; continue; }
        if (s.compare(i, 2, "//") == 0) { skip_to_line_end(); continue; }
        if (s.compare(i, 2, "/*") == 0) {
            size_t end = s.find("*/", i + 2);
            end = end == std::string::npos ? n : end + 2;
            line += int(std::count(s.begin() + i, s.begin() + end, '\n'));
            i = end;
            continue;
        }
        const bool at_start = line_start;
        line_start = false;
        if (c == '#' && at_start) {
            size_t j = i + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
            // #include lines are the handout's; #pragma says nothing of the code
            if (s.compare(j, 7, "include") == 0 || s.compare(j, 6, "pragma") == 0) { skip_to_line_end(); continue; }
        }
        const int at = line;
        if (name_start(c)) {
            size_t j = i;
            while (j < n && name_char(s[j])) j++;
            out.push_back({s.substr(i, j - i), at});
            i = j;
            continue;
        }
        if (std::isdigit(c) || (c == '.' && i + 1 < n && std::isdigit((unsigned char)s[i + 1]))) {
            for (i++; i < n; i++) {
                char d = s[i];
                if ((d == '+' || d == '-') && std::strchr("eEpP", s[i - 1])) continue;
                if (!name_char(d) && d != '.' && d != '\'') break;
            }
            out.push_back({"N", at});
            continue;
        }
        if (c == '"' || c == '\'') {
            quoted(char(c));
            out.push_back({"S", at});
            continue;
        }
        std::string op(1, char(c));
        for (const char* o : operators)
            if (s.compare(i, std::strlen(o), o) == 0) {
                op = o;
                break;
            }
        i += op.size();
        out.push_back({op, at});
    }
    return out;
}

// ---------------------------------------------------------------------------
// for (init; condition; step) body -> init LOOP condition body step, as with
// while (without it tiny.2's margin is -0.37). On raw tokens: it needs ( ; ).

static size_t matching(const std::vector<Token>& t, size_t open, size_t end) {  // the index of open's partner
    int depth = 0;
    for (size_t i = open; i < end; i++) {
        const std::string& x = t[i].text;
        if (x == "(" || x == "[" || x == "{") depth++;
        else if (x == ")" || x == "]" || x == "}") {
            if (--depth == 0) return i;
        }
    }
    return end;
}

static size_t statement_end(const std::vector<Token>& t, size_t i, size_t end) {
    if (i >= end) return end;
    const std::string& x = t[i].text;
    if (x == "{") return std::min(matching(t, i, end) + 1, end);
    if ((x == "for" || x == "while" || x == "if") && i + 1 < end && t[i + 1].text == "(") {
        size_t after = statement_end(t, matching(t, i + 1, end) + 1, end);
        return x == "if" && after < end && t[after].text == "else" ? statement_end(t, after + 1, end) : after;
    }
    for (size_t j = i; j < end; j++) {
        const std::string& y = t[j].text;
        if (y == "(" || y == "[" || y == "{") j = matching(t, j, end);
        else if (y == ";") return j + 1;
    }
    return end;
}

static void loops_as_while(const std::vector<Token>& t, size_t from, size_t to, std::vector<Token>& out) {
    for (size_t i = from; i < to; i++) {
        if (t[i].text != "for" || i + 1 >= to || t[i + 1].text != "(") {
            out.push_back(t[i]);
            continue;
        }
        size_t close = matching(t, i + 1, to), first = 0, second = 0;
        int depth = 0;
        for (size_t j = i + 2; j < close; j++) {
            const std::string& y = t[j].text;
            if (y == "(" || y == "[" || y == "{") depth++;
            else if (y == ")" || y == "]" || y == "}") depth--;
            else if (y == ";" && depth == 0) (first ? second : first) = j;
        }
        if (!first || !second || close >= to) {  // a range-for, or code that does not parse
            out.push_back(t[i]);
            continue;
        }
        size_t body_end = statement_end(t, close + 1, to);
        loops_as_while(t, i + 2, first, out);
        out.push_back({"while", t[i].line});
        loops_as_while(t, first + 1, second, out);
        loops_as_while(t, close + 1, body_end, out);
        loops_as_while(t, second + 1, close, out);
        i = body_end - 1;
    }
}

static std::vector<Token> tokens_of(const std::string& text) {
    std::vector<Token> raw = raw_tokens(text), loops, out;
    loops_as_while(raw, 0, raw.size(), loops);
    for (Token& t : loops) {
        t.text = normalised(t.text);
        if (!t.text.empty()) out.push_back(t);
    }
    return out;
}

// ---------------------------------------------------------------------------
// Fingerprints

static std::vector<uint64_t> kgram_hashes(const std::vector<Token>& tokens, size_t k = K) {
    std::vector<uint64_t> each, out;
    for (const Token& t : tokens) each.push_back(judge::fnv1a(t.text));
    for (size_t i = 0; i + k <= each.size(); i++) {
        uint64_t h = 0;
        for (size_t j = i; j < i + k; j++) h = (h ^ each[j]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
        out.push_back(h);
    }
    return out;
}

struct Print {
    uint64_t hash;
    size_t at;  // the first of its K tokens
};

// Winnowing: the smallest of each W hashes in a row (the rightmost of equals), each position once.
static std::vector<Print> winnow(const std::vector<uint64_t>& h) {
    std::vector<Print> out;
    const size_t windows = h.size() < size_t(W) ? (h.empty() ? 0 : 1) : h.size() - W + 1;
    const size_t width = std::min(h.size(), size_t(W));
    for (size_t start = 0; start < windows; start++) {
        size_t best = start;
        for (size_t j = start; j < start + width; j++)
            if (h[j] <= h[best]) best = j;
        if (out.empty() || out.back().at != best) out.push_back({h[best], best});
    }
    return out;
}

// ---------------------------------------------------------------------------
// The manifest

struct Document {
    std::string exercise, role, name, path, text;
    std::vector<Token> tokens;
    std::vector<Print> prints;    // winnowed, base code removed, in file order
    std::vector<uint64_t> kept;   // their distinct hashes, sorted
};

static std::string read_manifest(const char* manifest, std::vector<Document>& docs) {
    std::string text;
    if (!judge::read_text(manifest, text)) return judge::say("cannot read the manifest %s", manifest);
    std::istringstream lines(text);
    std::string line;
    std::set<std::pair<std::string, std::string>> students;
    for (int number = 1; std::getline(lines, line); number++) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::vector<std::string> f = judge::fields(line);
        const std::string where = judge::say("%s line %d: ", manifest, number);
        if (f.size() != 4 || f[0].empty() || f[2].empty() || f[3].empty())
            return where + "want exercise<TAB>role<TAB>name<TAB>path, each one not empty";
        Document d{f[0], f[1], f[2], f[3], "", {}, {}, {}};
        if (d.role != "base" && d.role != "reference" && d.role != "student")
            return where + "role '" + d.role + "' is not base, reference or student";
        if (d.role == "student" && (d.name == REFERENCE_NAME || !students.insert({d.exercise, d.name}).second))
            return where + "student '" + d.name + "' is named twice in exercise " + d.exercise;
        if (!judge::read_text(d.path, d.text)) return where + "cannot read " + d.path;
        docs.push_back(d);
    }
    if (students.empty()) return judge::say("%s names no student", manifest);
    return "";
}

static bool has(const std::vector<uint64_t>& sorted, uint64_t h) {
    return std::binary_search(sorted.begin(), sorted.end(), h);
}

// Fingerprints found in the exercise's base code are dropped: with them the margins are +0.03.
static void fingerprint(std::vector<Document>& docs) {
    std::map<std::string, std::vector<uint64_t>> base;  // each exercise's base code's k-grams, sorted
    for (Document& d : docs) {
        d.tokens = tokens_of(d.text);
        if (d.role != "base") continue;
        const std::vector<uint64_t> h = kgram_hashes(d.tokens);
        base[d.exercise].insert(base[d.exercise].end(), h.begin(), h.end());
    }
    for (auto& b : base) std::sort(b.second.begin(), b.second.end());
    for (Document& d : docs) {
        if (d.role == "base") continue;
        const std::vector<uint64_t>& handed_out = base[d.exercise];
        for (const Print& p : winnow(kgram_hashes(d.tokens)))
            if (!has(handed_out, p.hash)) {
                d.prints.push_back(p);
                d.kept.push_back(p.hash);
            }
        std::sort(d.kept.begin(), d.kept.end());
        d.kept.erase(std::unique(d.kept.begin(), d.kept.end()), d.kept.end());
    }
}

// ---------------------------------------------------------------------------
// Pairs

struct Region {
    size_t a_first, a_last, b_first, b_last;  // token positions of the first and last shared print
};

struct Pair {
    const Document* a;
    const Document* b;
    std::string b_name;  // b's name, or REFERENCE_NAME
    double similarity = 0;
    int shared_lines = 0;
};

// Shared prints joined into regions, one colour each on the page: consecutive in a, and in b
// not far from the last one (only for the pairs the page shows: it is |A| x |B| work).
static std::vector<Region> regions_of(const Document& a, const Document& b) {
    std::vector<Region> out;
    const size_t reach = K + W;  // a gap of more tokens than this starts a new region
    for (const Print& p : a.prints) {
        if (!has(b.kept, p.hash)) continue;
        auto same = [&](const Print& q) { return q.hash == p.hash; };
        auto continues = [&](const Print& q) {  // b's print with that hash just after the last region's
            return same(q) && !out.empty() && q.at > out.back().b_last && q.at <= out.back().b_last + reach;
        };
        auto pick = std::find_if(b.prints.begin(), b.prints.end(), continues);
        if (pick == b.prints.end()) pick = std::find_if(b.prints.begin(), b.prints.end(), same);
        if (continues(*pick) && p.at <= out.back().a_last + reach) out.back().a_last = p.at, out.back().b_last = pick->at;
        else out.push_back({p.at, p.at, pick->at, pick->at});
    }
    return out;
}

static Pair compare(const Document& a, const Document& b, const std::string& b_name) {
    Pair pair{&a, &b, b_name, 0.0, 0};
    size_t shared = 0;
    for (uint64_t h : a.kept) shared += has(b.kept, h);
    // The smaller file's share: Jaccard's and Dice's margins are alike, but fall for a copy padded with dead code.
    const size_t smaller = std::max(std::min(a.kept.size(), b.kept.size()), FEWEST);
    pair.similarity = double(shared) / double(smaller);
    std::set<int> lines;
    for (const Print& p : a.prints)
        if (has(b.kept, p.hash))
            for (size_t t = p.at; t < p.at + K; t++) lines.insert(a.tokens[t].line);
    pair.shared_lines = int(lines.size());
    return pair;
}

// Highest first, then by exercise and names: the same input, the same order.
static std::vector<Pair> all_pairs(const std::vector<Document>& docs) {
    std::vector<Pair> pairs;
    for (const Document& a : docs) {
        if (a.role != "student") continue;
        for (const Document& b : docs) {
            if (b.exercise != a.exercise) continue;
            if (b.role == "reference") pairs.push_back(compare(a, b, REFERENCE_NAME));
            if (b.role == "student" && a.name < b.name) pairs.push_back(compare(a, b, b.name));
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
        if (x.similarity != y.similarity) return x.similarity > y.similarity;
        if (x.a->exercise != y.a->exercise) return x.a->exercise < y.a->exercise;
        if (x.a->name != y.a->name) return x.a->name < y.a->name;
        return x.b_name < y.b_name;
    });
    return pairs;
}

// ---------------------------------------------------------------------------
// The CSV, as the grade sheet's: RFC 4180

using judge::csv_field;

static std::string csv(const std::vector<Pair>& pairs) {
    std::string out = std::string("exercise,student_a,student_b,similarity,shared_lines") + judge::CSV_END;
    for (const Pair& p : pairs)
        out += csv_field(p.a->exercise) + "," + csv_field(p.a->name) + "," + csv_field(p.b_name) + "," +
               judge::say("%.3f,%d%s", p.similarity, p.shared_lines, judge::CSV_END);
    return out;
}

// ---------------------------------------------------------------------------
// The page

using judge::escaped;

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
    "pre{font-size:12px;line-height:1.35;background:#fafafa;border:1px solid #ddd;padding:4px;overflow-x:auto;"
    "tab-size:4;margin:0}"
    "pre span.l{display:block;white-space:pre}"
    ".n{color:#999;display:inline-block;width:3.5em;text-align:right;margin-right:.6em;user-select:none}"
    ".r{display:inline-block;width:2.5em;font-weight:bold}"
    ".c0{background:#ffd6d6}.c1{background:#d6f0ff}.c2{background:#dff5d0}.c3{background:#f3dcff}"
    ".c4{background:#ffe8c2}.c5{background:#d0f5ef}.c6{background:#f7f3b0}.c7{background:#e2e2ff}";

// One file, the lines of region r in colour r mod COLOURS, its number a link to the other side's.
static std::string side(const Document& d, const std::string& title, const std::vector<Region>& regions, bool is_a,
                        const std::string& id) {
    const int lines = int(std::count(d.text.begin(), d.text.end(), '\n')) + 1;
    std::vector<int> region_of(size_t(lines) + 1, -1);  // per line, from 1; -1 for none
    for (size_t r = 0; r < regions.size(); r++) {
        const size_t from = is_a ? regions[r].a_first : regions[r].b_first;
        const size_t to = (is_a ? regions[r].a_last : regions[r].b_last) + K - 1;
        int lo = lines + 1, hi = 0;
        for (size_t t = from; t <= to && t < d.tokens.size(); t++)
            lo = std::min(lo, d.tokens[t].line), hi = std::max(hi, d.tokens[t].line);
        for (int l = lo; l <= hi && l <= lines; l++)
            if (region_of[size_t(l)] < 0) region_of[size_t(l)] = int(r);
    }
    std::vector<int> first_line(regions.size(), 0);  // where each region's number goes
    for (int l = lines; l >= 1; l--)
        if (region_of[size_t(l)] >= 0) first_line[size_t(region_of[size_t(l)])] = l;
    const char* here = is_a ? "a" : "b";
    const char* there = is_a ? "b" : "a";
    std::string out = "<div class=\"side\"><h4>" + escaped(title) + "</h4><pre>";
    std::istringstream text(d.text);
    std::string line;
    for (int l = 1; std::getline(text, line); l++) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        int r = region_of[size_t(l)];
        std::string label = "<span class=\"r\"></span>";
        if (r >= 0 && first_line[size_t(r)] == l)
            label = judge::say("<a class=\"r\" id=\"%s-%s%d\" href=\"#%s-%s%d\">[%d]</a>", id.c_str(), here, r,
                               id.c_str(), there, r, r + 1);
        out += r >= 0 ? judge::say("<span class=\"l c%d\">", r % COLOURS) : std::string("<span class=\"l\">");
        out += label + judge::say("<span class=\"n\">%d</span>", l) + escaped(line) + "</span>";
    }
    return out + "</pre></div>";
}

static std::string page(const std::vector<Pair>& pairs, const std::vector<std::string>& exercises) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Similarity</title><style>" +
        std::string(STYLE) + "</style></head><body>\n<h1>Shared code between submissions</h1>\n";
    out += judge::say(
        "<p class=\"note\"><b>A high score is a reason to look, not a verdict.</b> Correct answers to a short "
        "exercise look alike, and code handed out to everyone does not count. The score is the share of the "
        "smaller file's fingerprints (MOSS's winnowing: %d normalised tokens, window %d) that the other file has "
        "too; names, numbers, spacing and comments do not count, and a for loop counts as its while loop. Look at "
        "the marked code side by side before you decide anything.</p>\n",
        K, W);
    for (size_t e = 0; e < exercises.size(); e++) {
        std::vector<const Pair*> mine;
        for (const Pair& p : pairs)
            if (p.a->exercise == exercises[e]) mine.push_back(&p);
        out += "<h2>Exercise " + escaped(exercises[e]) + "</h2>\n";
        if (mine.empty()) {
            out += "<p>No pairs: fewer than two students and no reference.</p>\n";
            continue;
        }
        out += "<table class=\"rank\"><tr><th>#</th><th>student a</th><th>student b</th><th>similarity</th>"
               "<th>shared lines of a</th><th></th></tr>\n";
        std::string details;
        for (size_t k = 0; k < mine.size(); k++) {
            const Pair& p = *mine[k];
            const std::string id = judge::say("e%zu-p%zu", e + 1, k + 1);
            const bool shown = k < DETAIL_MOST && p.similarity >= DETAIL_LEAST;
            out += judge::say("<tr><td class=\"num\">%zu</td><td>", k + 1) + escaped(p.a->name) + "</td><td>" +
                   escaped(p.b_name) + judge::say("</td><td class=\"num\">%.3f</td><td class=\"num\">%d</td><td>%s",
                                               p.similarity, p.shared_lines, shown ? "" : "&nbsp;");
            if (shown) out += "<a href=\"#" + id + "\">side by side</a>";
            out += "</td></tr>\n";
            if (!shown) continue;
            const std::vector<Region> regions = regions_of(*p.a, *p.b);
            details += "<div class=\"pair\" id=\"" + id + "\"><h3>" + escaped(exercises[e]) + ": " + escaped(p.a->name) +
                       " and " + escaped(p.b_name) +
                       judge::say(": %.3f, %d shared lines, %zu regions</h3>", p.similarity, p.shared_lines,
                                  regions.size()) +
                       "<div class=\"sides\">" + side(*p.a, p.a->name, regions, true, id) +
                       side(*p.b, p.b_name, regions, false, id) + "</div></div>\n";
        }
        out += "</table>\n";
        out += judge::say("<p>Side by side below: the pairs at %.1f or above, %zu at the most. The same colour and "
                          "number on both sides is the same shared code; click a number to jump across.</p>\n",
                          DETAIL_LEAST, DETAIL_MOST);
        out += details;
    }
    return out + "</body></html>\n";
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: similarity MANIFEST OUT_CSV OUT_HTML\n"
    "MANIFEST: 'exercise<TAB>role<TAB>name<TAB>path' lines, role base (never counts), reference or\n"
    "student. OUT_CSV: every pair's similarity, highest first; OUT_HTML: the best pairs side by side.\n";

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--help") return std::fputs(USAGE, stdout), 0;
    if (argc != 4) return std::fputs(USAGE, stderr), 2;
    if (std::string(argv[2]) == argv[3])
        return std::fprintf(stderr, "similarity: OUT_CSV and OUT_HTML are the same file\n"), 2;
    std::vector<Document> docs;
    std::string error = read_manifest(argv[1], docs);
    if (!error.empty()) return std::fprintf(stderr, "similarity: %s\n", error.c_str()), 2;
    fingerprint(docs);
    std::vector<Pair> pairs = all_pairs(docs);
    std::set<std::string> names;
    for (const Document& d : docs) names.insert(d.exercise);
    if (!judge::write_whole(argv[2], csv(pairs)) ||
        !judge::write_whole(argv[3], page(pairs, std::vector<std::string>(names.begin(), names.end()))))
        return std::fprintf(stderr, "similarity: cannot write %s or %s\n", argv[2], argv[3]), 2;
    return 0;
}
