// tests/grader/gradetool.cpp: the grader's small C++ helper (grade.sh builds it).
//
//   gradetool compare TOLERANCE REFERENCE STUDENT   numbers of a compare test
//   gradetool words REFERENCE STUDENT               a printed output, as words and numbers
//   gradetool json OUT ROWS REPORT                  Gradescope's results.json
//   gradetool check-json FILE                       results.json is valid and has Gradescope's fields
//
// compare, words and check-json exit 0 on a match (or a valid file) and 1
// otherwise, printing one line that says what differs; 2 is a usage error.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

static bool read_text(const char* path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
    return true;
}

static std::string shown(std::string s, size_t most = 40) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    return s.size() > most ? s.substr(0, most) + "..." : s;
}

// ---------------------------------------------------------------------------
// compare: "@grader label rows cols v v ..." lines, reference against student.

struct Block {
    int rows = 0, cols = 0;
    std::vector<double> values;
};

static std::vector<std::pair<std::string, Block>> read_blocks(const std::string& text) {
    std::vector<std::pair<std::string, Block>> blocks;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.compare(0, 8, "@grader ") != 0) continue;
        std::istringstream words(line.substr(8));
        std::string label;
        Block b;
        words >> label >> b.rows >> b.cols;
        std::string word;
        while (words >> word) b.values.push_back(std::strtod(word.c_str(), nullptr));
        blocks.emplace_back(label, b);
    }
    return blocks;
}

static std::string where(const Block& b, size_t k) {
    char text[64];
    if (b.rows == 1 && b.cols == 1) return "";
    if (b.rows == 1) std::snprintf(text, sizeof text, " entry %zu", k);
    else std::snprintf(text, sizeof text, " entry (%zu, %zu)", k / size_t(b.cols), k % size_t(b.cols));
    return text;
}

constexpr double FLOOR = 1e-3;  // entries below this are compared absolutely (see README)

static int compare(double tolerance, const std::string& reference, const std::string& student) {
    auto want = read_blocks(reference), got = read_blocks(student);
    std::map<std::string, Block> by_label(got.begin(), got.end());
    if (want.empty()) {
        std::printf("the reference printed no numbers (a grader bug)\n");
        return 1;
    }
    for (const auto& [label, w] : want) {
        auto found = by_label.find(label);
        if (found == by_label.end()) {
            std::printf("%s: none came back\n", label.c_str());
            return 1;
        }
        const Block& g = found->second;
        if (g.values.empty() && !w.values.empty()) {
            std::printf("%s came back empty (%d x %d), want %d x %d: is its TODO still to do?\n", label.c_str(), g.rows,
                        g.cols, w.rows, w.cols);
            return 1;
        }
        if (g.rows != w.rows || g.cols != w.cols || g.values.size() != w.values.size()) {
            std::printf("%s: %d x %d numbers, want %d x %d\n", label.c_str(), g.rows, g.cols, w.rows, w.cols);
            return 1;
        }
        double worst = 0;
        size_t at = 0;
        for (size_t k = 0; k < w.values.size(); k++) {
            double a = g.values[k], b = w.values[k];
            double scale = std::fabs(a) + std::fabs(b);
            double e = std::isnan(a) || std::isinf(a) ? INFINITY : std::fabs(a - b) / (scale > FLOOR ? scale : FLOOR);
            if (e > worst) worst = e, at = k;
        }
        if (worst > tolerance) {
            std::string shape = w.rows == 1 && w.cols == 1 ? "" : " (" + std::to_string(w.rows) + " x " +
                                                                    std::to_string(w.cols) + "):" + where(w, at);
            if (tolerance == 0)  // exact: whole numbers, printed in full
                std::printf("%s%s is %.17g, want %.17g\n", label.c_str(), shape.c_str(), g.values[at], w.values[at]);
            else
                std::printf("%s%s is %.6g, want %.6g (rel_error %.1e, tolerance %.0e)\n", label.c_str(),
                            shape.c_str(), g.values[at], w.values[at], worst, tolerance);
            return 1;
        }
    }
    return 0;
}

// ---------------------------------------------------------------------------
// words: a printed output read as words and numbers. Punctuation and spacing
// do not count; a number matches when the two agree to the precision of the
// less precise print (0.871 matches 0.8712; 98,304 matches 98304).

struct Token {
    bool number = false;
    std::string text;
    double value = 0, step = 0;  // step: one unit in the last printed digit
    int line = 0;
};

static bool digit(char c) { return c >= '0' && c <= '9'; }
static bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || digit(c) || (unsigned char)c >= 0x80;
}

static std::vector<Token> tokens(const std::string& s) {
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
            out.push_back(t);
            i = j;
        } else {
            if (c == '\n') line++;
            i++;
        }
    }
    return out;
}

static bool same(const Token& a, const Token& b) {
    if (a.number != b.number) return false;
    if (!a.number) return a.text == b.text;
    double allowed = 0.5 * std::fmax(a.step, b.step) * (1 + 1e-9) + 1e-12 * std::fmax(std::fabs(a.value), 1.0);
    return std::fabs(a.value - b.value) <= allowed;
}

static int words(const std::string& reference, const std::string& student) {
    std::vector<Token> want = tokens(reference), got = tokens(student);
    size_t k = 0;
    for (; k < want.size() && k < got.size(); k++) {
        if (same(want[k], got[k])) continue;
        std::printf("line %d of your output: %s '%s' where the reference prints %s '%s' (its line %d)\n",
                    got[k].line, got[k].number ? "the number" : "the word", shown(got[k].text).c_str(),
                    want[k].number ? "the number" : "the word", shown(want[k].text).c_str(), want[k].line);
        return 1;
    }
    if (k < want.size()) {
        std::printf("your output stops after %zu words and numbers; the reference goes on with '%s' (its line %d)\n",
                    k, shown(want[k].text).c_str(), want[k].line);
        return 1;
    }
    if (k < got.size()) {
        std::printf("your output goes on after the reference's last word, with '%s' (your line %d)\n",
                    shown(got[k].text).c_str(), got[k].line);
        return 1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// json: rows are "name TAB score TAB max_score TAB message" lines; REPORT is the
// text shown for the whole submission. Written to OUT.tmp, then renamed.

static std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else out += char(c);
    }
    return out + "\"";
}

static std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(line);
    while (std::getline(in, part, sep)) parts.push_back(part);
    return parts;
}

// Messages carry their own newlines as the two characters "\n".
static std::string unescape_newlines(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n') out += '\n', i++;
        else out += s[i];
    }
    return out;
}

static int json(const char* out_path, const std::string& rows, const std::string& report) {
    std::string tests;
    double total = 0;
    std::istringstream lines(rows);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> f = split(line, '\t');
        if (f.size() < 3) continue;
        double score = std::atof(f[1].c_str()), max_score = std::atof(f[2].c_str());
        total += score;
        std::string message = f.size() > 3 ? unescape_newlines(f[3]) : "";
        if (!tests.empty()) tests += ",\n";
        char numbers[96];
        std::snprintf(numbers, sizeof numbers, "\"score\": %g, \"max_score\": %g", score, max_score);
        tests += "    {\"name\": " + json_string(f[0]) + ", " + numbers +
                 ", \"status\": " + json_string(score >= max_score ? "passed" : "failed") +
                 ", \"output\": " + json_string(message) + ", \"visibility\": \"visible\"}";
    }
    char score[64];
    std::snprintf(score, sizeof score, "%g", total);
    std::string text = std::string("{\n  \"score\": ") + score + ",\n  \"output\": " + json_string(report) +
                       ",\n  \"visibility\": \"visible\",\n  \"tests\": [\n" + tests + "\n  ]\n}\n";
    std::string tmp = std::string(out_path) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out.flush()) {
            std::printf("cannot write %s\n", out_path);
            std::remove(tmp.c_str());
            return 2;
        }
    }
    if (std::rename(tmp.c_str(), out_path) != 0) {
        std::printf("cannot write %s\n", out_path);
        std::remove(tmp.c_str());
        return 2;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// check-json: a small JSON parser, then the fields Gradescope reads.

struct Value {
    enum Type { NUL, BOOL, NUMBER, STRING, ARRAY, OBJECT } type = NUL;
    double number = 0;
    std::string text;
    std::vector<Value> items;
    std::vector<std::pair<std::string, Value>> members;
    const Value* get(const std::string& key) const {
        for (const auto& m : members)
            if (m.first == key) return &m.second;
        return nullptr;
    }
};

struct Parser {
    const std::string& s;
    size_t i = 0;
    std::string error;
    explicit Parser(const std::string& text) : s(text) {}
    void space() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) i++;
    }
    bool fail(const char* what) {
        if (error.empty()) error = std::string(what) + " at byte " + std::to_string(i);
        return false;
    }
    bool literal(const char* word) {
        size_t n = std::strlen(word);
        if (s.compare(i, n, word) != 0) return fail("unexpected text");
        i += n;
        return true;
    }
    bool string(std::string& out) {
        if (i >= s.size() || s[i] != '"') return fail("expected a string");
        i++;
        while (i < s.size() && s[i] != '"') {
            unsigned char c = s[i];
            if (c < 0x20) return fail("a control character inside a string");
            if (c == '\\') {
                if (++i >= s.size()) return fail("an unfinished escape");
                char e = s[i];
                if (e == 'u') {
                    for (int k = 1; k <= 4; k++)
                        if (i + k >= s.size() || !std::isxdigit((unsigned char)s[i + k])) return fail("a bad \\u escape");
                    i += 4;
                    out += '?';
                } else if (std::strchr("\"\\/bfnrt", e)) out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                else return fail("a bad escape");
                i++;
            } else out += s[i++];
        }
        if (i >= s.size()) return fail("an unterminated string");
        i++;
        return true;
    }
    bool number(double& out) {
        size_t start = i;
        if (i < s.size() && s[i] == '-') i++;
        if (i >= s.size() || !digit(s[i])) return fail("a bad number");
        if (s[i] == '0') i++;
        else while (i < s.size() && digit(s[i])) i++;
        if (i < s.size() && s[i] == '.') {
            i++;
            if (i >= s.size() || !digit(s[i])) return fail("a bad number");
            while (i < s.size() && digit(s[i])) i++;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            i++;
            if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
            if (i >= s.size() || !digit(s[i])) return fail("a bad number");
            while (i < s.size() && digit(s[i])) i++;
        }
        out = std::strtod(s.substr(start, i - start).c_str(), nullptr);
        return true;
    }
    bool value(Value& v, int depth = 0) {
        if (depth > 64) return fail("nesting too deep");
        space();
        if (i >= s.size()) return fail("unexpected end");
        char c = s[i];
        if (c == '{') {
            v.type = Value::OBJECT;
            i++;
            space();
            if (i < s.size() && s[i] == '}') return ++i, true;
            for (;;) {
                space();
                std::string key;
                if (!string(key)) return false;
                space();
                if (i >= s.size() || s[i] != ':') return fail("expected ':'");
                i++;
                Value member;
                if (!value(member, depth + 1)) return false;
                v.members.emplace_back(key, member);
                space();
                if (i < s.size() && s[i] == ',') { i++; continue; }
                if (i < s.size() && s[i] == '}') return ++i, true;
                return fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type = Value::ARRAY;
            i++;
            space();
            if (i < s.size() && s[i] == ']') return ++i, true;
            for (;;) {
                Value item;
                if (!value(item, depth + 1)) return false;
                v.items.push_back(item);
                space();
                if (i < s.size() && s[i] == ',') { i++; continue; }
                if (i < s.size() && s[i] == ']') return ++i, true;
                return fail("expected ',' or ']'");
            }
        }
        if (c == '"') return v.type = Value::STRING, string(v.text);
        if (c == 't') return v.type = Value::BOOL, literal("true");
        if (c == 'f') return v.type = Value::BOOL, literal("false");
        if (c == 'n') return v.type = Value::NUL, literal("null");
        return v.type = Value::NUMBER, number(v.number);
    }
};

static int check_json(const std::string& text) {
    Parser p(text);
    Value top;
    bool ok = p.value(top);
    p.space();
    if (ok && p.i != text.size()) ok = p.fail("text after the value");
    if (!ok) return std::printf("not valid JSON: %s\n", p.error.c_str()), 1;
    auto need = [](const Value* v, Value::Type t, const std::string& what) {
        if (!v || v->type != t) {
            std::printf("%s is missing or of the wrong type\n", what.c_str());
            return false;
        }
        return true;
    };
    if (!need(&top, Value::OBJECT, "the top level")) return 1;
    if (!need(top.get("score"), Value::NUMBER, "score") || !need(top.get("output"), Value::STRING, "output") ||
        !need(top.get("tests"), Value::ARRAY, "tests"))
        return 1;
    double sum = 0;
    const char* visibilities[] = {"hidden", "after_due_date", "after_published", "visible"};
    for (size_t k = 0; k < top.get("tests")->items.size(); k++) {
        const Value& t = top.get("tests")->items[k];
        std::string at = "tests[" + std::to_string(k) + "]";
        if (!need(&t, Value::OBJECT, at) || !need(t.get("name"), Value::STRING, at + ".name") ||
            !need(t.get("score"), Value::NUMBER, at + ".score") ||
            !need(t.get("max_score"), Value::NUMBER, at + ".max_score") ||
            !need(t.get("status"), Value::STRING, at + ".status") ||
            !need(t.get("output"), Value::STRING, at + ".output") ||
            !need(t.get("visibility"), Value::STRING, at + ".visibility"))
            return 1;
        if (t.get("status")->text != "passed" && t.get("status")->text != "failed")
            return std::printf("%s.status is '%s', not passed or failed\n", at.c_str(), t.get("status")->text.c_str()), 1;
        bool known = false;
        for (const char* v : visibilities) known = known || t.get("visibility")->text == v;
        if (!known) return std::printf("%s.visibility is '%s'\n", at.c_str(), t.get("visibility")->text.c_str()), 1;
        double score = t.get("score")->number, max_score = t.get("max_score")->number;
        if (score < 0 || score > max_score) return std::printf("%s.score is outside 0..max_score\n", at.c_str()), 1;
        sum += score;
    }
    if (std::fabs(sum - top.get("score")->number) > 1e-9)
        return std::printf("score %g is not the sum of the tests' scores, %g\n", top.get("score")->number, sum), 1;
    return 0;
}

int main(int argc, char** argv) {
    const char* usage =
        "usage: gradetool compare TOLERANCE REFERENCE STUDENT | words REFERENCE STUDENT |\n"
        "       json OUT ROWS REPORT | check-json FILE\n";
    std::string a, b;
    std::string command = argc > 1 ? argv[1] : "";
    if (command == "compare" && argc == 5) {
        if (!read_text(argv[3], a) || !read_text(argv[4], b)) return std::printf("cannot read the numbers\n"), 2;
        return compare(std::atof(argv[2]), a, b);
    }
    if (command == "words" && argc == 4) {
        if (!read_text(argv[2], a) || !read_text(argv[3], b)) return std::printf("cannot read the outputs\n"), 2;
        return words(a, b);
    }
    if (command == "json" && argc == 5) {
        if (!read_text(argv[3], a) || !read_text(argv[4], b)) return std::printf("cannot read the results\n"), 2;
        return json(argv[2], a, b);
    }
    if (command == "check-json" && argc == 3) {
        if (!read_text(argv[2], a)) return std::printf("cannot read %s\n", argv[2]), 1;
        return check_json(a);
    }
    std::fputs(usage, stderr);
    return 2;
}
