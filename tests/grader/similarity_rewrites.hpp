// tests/grader/similarity_rewrites.hpp: the passes that rewrite similarity_tokens.hpp's raw tokens into
// the list similarity.cpp compares (similarity_inline.hpp's tokens_of): a for loop read as its while loop,
// a macro or a type alias replaced by what it stands for, an element's address one token, statements numbered.
#pragma once

#include "similarity_tokens.hpp"

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
        const int line = t[i].line;  // the separators keep its statements apart, as in a while loop
        loops_as_while(t, i + 2, first, out);
        out.push_back({";", line});
        out.push_back({"while", line});
        out.push_back({"(", line});
        loops_as_while(t, first + 1, second, out);
        out.push_back({")", line});
        loops_as_while(t, close + 1, body_end, out);
        loops_as_while(t, second + 1, close, out);
        out.push_back({";", line});
        i = body_end - 1;
    }
}

// ---------------------------------------------------------------------------
// A name that stands for code, written out where it is used: "#define AT(i, j) ((i) * n + (j))",
// "#define N 8", "using Row = std::vector<double>;" and "typedef double real;" (a copier adds them).

// The pieces of a list between its top-level commas, from..to; in a list of types a template's <> hold
// commas too.
static std::vector<std::pair<size_t, size_t>> comma_pieces(const std::vector<Token>& t, size_t from, size_t to,
                                                           bool types) {
    std::vector<std::pair<size_t, size_t>> out{{from, from}};
    int angles = 0;
    for (size_t j = from; j < to; j++) {
        const std::string& y = t[j].text;
        if (types) angles += y == "<" ? 1 : y == ">" ? -1 : y == ">>" ? -2 : 0;
        if (y == "(" || y == "[" || y == "{") j = matching(t, j, to);
        if (y == "," && angles <= 0) out.push_back({j + 1, j + 1});
        else out.back().second = std::min(j + 1, to);
    }
    return out;
}

struct Macro {
    std::vector<std::string> parameters;  // none for an object-like macro or an alias
    std::vector<Token> body;
};

static std::vector<Token> expanded(const std::vector<Token>& t, const std::map<std::string, Macro>& macros, int depth) {
    std::vector<Token> out;
    for (size_t i = 0; i < t.size(); i++) {
        auto m = macros.find(t[i].text);
        if (m == macros.end() || depth > 4) {
            out.push_back(t[i]);
            continue;
        }
        std::vector<std::vector<Token>> arguments;
        if (!m->second.parameters.empty()) {  // a call: its arguments
            if (i + 1 >= t.size() || t[i + 1].text != "(") {
                out.push_back(t[i]);
                continue;
            }
            const size_t close = matching(t, i + 1, t.size());
            for (auto [from, to] : comma_pieces(t, i + 2, close, false))
                arguments.emplace_back(t.begin() + long(from), t.begin() + long(to));
            i = close;
        }
        std::vector<Token> body;
        for (Token b : m->second.body) {
            const auto& p = m->second.parameters;
            const size_t k = size_t(std::find(p.begin(), p.end(), b.text) - p.begin());
            if (k < p.size() && k < arguments.size()) body.insert(body.end(), arguments[k].begin(), arguments[k].end());
            else body.push_back(b);
        }
        for (Token& b : expanded(body, macros, depth + 1)) out.push_back({b.text, t[i].line});
    }
    return out;
}

static std::vector<Token> stand_ins_written_out(const std::vector<Token>& t) {
    std::map<std::string, Macro> macros;
    std::vector<Token> rest;
    for (size_t i = 0; i < t.size(); i++) {
        const bool define = t[i].text == "#" && i + 2 < t.size() && t[i + 1].text == "define";
        if (define && name_start((unsigned char)t[i + 2].text[0])) {
            Macro m;
            size_t j = i + 3;
            const int line = t[i].line;
            if (j < t.size() && t[j].text == "(" && t[j].line == line) {
                for (j++; j < t.size() && t[j].line == line && t[j].text != ")"; j++)
                    if (t[j].text != ",") m.parameters.push_back(t[j].text);
                j++;
            }
            for (; j < t.size() && t[j].line == line; j++) m.body.push_back(t[j]);
            macros[t[i + 2].text] = m;
            i = j - 1;
            continue;
        }
        size_t end = i + 1;  // using NAME = ... ;  typedef ... NAME ;
        if ((t[i].text == "using" || t[i].text == "typedef") && (end = statement_end(t, i, t.size())) - i >= 4) {
            const bool using_ = t[i].text == "using" && t[i + 2].text == "=";
            if (using_ || t[i].text == "typedef") {
                const std::string name = using_ ? t[i + 1].text : t[end - 2].text;
                Macro m;
                m.body.assign(t.begin() + long(i) + (using_ ? 3 : 1), t.begin() + long(end) - (using_ ? 1 : 2));
                macros[name] = m;
                i = end - 1;
                continue;
            }
        }
        rest.push_back(t[i]);
    }
    return expanded(rest, macros, 0);
}

// An element's address as one token "[]": a[i][j], a[i * n + j], A(i, j) (a matrix's call operator, or a macro
// written out) and a.b or p->b (a member) are the same element read, whichever container holds it.
static bool plain_name(const std::string& x) { return name_start((unsigned char)x[0]) && !kept_names().count(x); }

static bool index_arithmetic(const std::vector<Token>& t, size_t from, size_t to) {  // names, numbers, + - * ,
    static const std::set<std::string> allowed = {"N", ",", "+", "-", "*"};
    for (size_t j = from; j < to; j++)
        if (!plain_name(t[j].text) && !allowed.count(t[j].text)) return false;
    return to < t.size();
}

static std::vector<Token> addresses_as_one(const std::vector<Token>& t) {
    std::vector<Token> out;
    for (size_t i = 0; i < t.size(); i++) {
        const std::string& x = t[i].text;
        const bool member = i + 2 < t.size() && (t[i + 1].text == "." || t[i + 1].text == "->");
        if (plain_name(x) && member && plain_name(t[i + 2].text)) {
            i++;  // a.b read as b
            continue;
        }
        size_t close = i;
        if (x == "[") close = matching(t, i, t.size());
        else if (plain_name(x) && i + 1 < t.size() && t[i + 1].text == "(") {
            close = matching(t, i + 1, t.size());
            if (!index_arithmetic(t, i + 2, close)) close = i;  // a call with more in it is kept as it is
            else out.push_back(t[i++]);
        }
        if (close == i || close >= t.size()) {
            out.push_back(t[i]);
            continue;
        }
        if (out.empty() || out.back().text != "[]") out.push_back({"[]", t[i].line});
        i = close;
    }
    return out;
}

// Each token's statement: a new one after ; { } and after the condition of an if, a loop or a switch.
static void number_statements(std::vector<Token>& t) {
    int statement = 0;
    size_t condition_end = t.size();
    for (size_t i = 0; i < t.size(); i++) {
        t[i].statement = statement;
        const std::string& x = t[i].text;
        if ((x == "if" || x == "while" || x == "switch") && i + 1 < t.size() && t[i + 1].text == "(")
            condition_end = matching(t, i + 1, t.size());
        if (x == ";" || x == "{" || x == "}" || i == condition_end) statement++;
    }
}
