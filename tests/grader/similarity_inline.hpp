// tests/grader/similarity_inline.hpp: a helper called once written out where it is called, and a temporary
// read once as its value, the last of the passes on a file's tokens (tokens_of; the others are
// similarity_rewrites.hpp's).
#pragma once
#include <algorithm>
#include <map>
#include <set>

#include "similarity_rewrites.hpp"

// A helper of the student's own (a name the handout does not have) called once, written out where it is
// called: a copy split into helpers, or its helpers inlined, reads as its original. A parameter becomes
// its argument when that is one name or number, else a variable set to it, as one inlines by hand; a
// helper that returns a value must end in its only return, which is put where the call was. A helper of one
// "return EXPRESSION;" is written out at every call, as a macro is (the same code, made an inline function).

static size_t opener(const std::vector<Token>& t, size_t close) {  // the index of close's partner, backwards
    int depth = 0;
    for (size_t i = close + 1; i-- > 0;) {
        const std::string& x = t[i].text;
        if (x == ")" || x == "]" || x == "}") depth++;
        else if ((x == "(" || x == "[" || x == "{") && --depth == 0) return i;
    }
    return 0;
}

struct Helper {
    size_t start, paren, open, close;  // where its definition starts, its "(", its body's "{" and "}"
    std::vector<size_t> calls;
};

static std::map<std::string, Helper> helpers_of(const std::vector<Token>& t) {
    std::map<std::string, Helper> out;
    std::map<std::string, std::vector<size_t>> calls;
    std::set<std::string> twice;  // overloads, or two lambdas of one name: which one a call means is not known
    auto define = [&](const std::string& name, const Helper& h) {
        if (!out.emplace(name, h).second) twice.insert(name);
    };
    for (size_t i = 0, depth = 0, start = 0; i < t.size(); i++) {  // start: of the top-level declaration
        const std::string& x = t[i].text;
        if (plain_name(x) && i + 1 < t.size() && t[i + 1].text == "(") calls[x].push_back(i);
        if (x == "{" && depth++ == 0) {  // a definition's body, or a struct's or a namespace's
            size_t before = i;
            while (before > start && (t[before - 1].text == "const" || t[before - 1].text == "noexcept")) before--;
            const size_t paren = before > start && t[before - 1].text == ")" ? opener(t, before - 1) : 0;
            if (paren > start && plain_name(t[paren - 1].text) && calls[t[paren - 1].text].back() == paren - 1) {
                calls[t[paren - 1].text].pop_back();  // its name is no call
                define(t[paren - 1].text, {start, paren, i, matching(t, i, t.size()), {}});
            }
        } else if ((x == "}" && --depth == 0) || (x == ";" && depth == 0)) start = i + 1;
        // A named lambda, "NAME = [...](...) ... { ... }", is a helper too: its definition, from its statement's start
        const size_t square = x == "[" && i > 1 && t[i - 1].text == "=" ? matching(t, i, t.size()) : 0;
        if (!square || !plain_name(t[i - 2].text) || square + 1 >= t.size() || t[square + 1].text != "(") continue;
        size_t open = matching(t, square + 1, t.size()), from = i - 2;
        while (open < t.size() && t[open].text != "{" && t[open].text != ";") open++;
        while (from > 0 && t[from - 1].text != ";" && t[from - 1].text != "{" && t[from - 1].text != "}") from--;
        if (open < t.size() && t[open].text == "{")
            define(t[i - 2].text, {from, square + 1, open, matching(t, open, t.size()), {}});
    }
    for (const std::string& name : twice) out.erase(name);
    for (auto& h : out) h.second.calls = calls[h.first];
    return out;
}

// A helper's declaration ahead of its definition, "void f(int n);", says nothing the definition does not, and
// is no call: dropped, so a helper declared first and defined after its caller is still called once.
static void prototypes_dropped(std::vector<Token>& t) {
    const std::map<std::string, Helper> helpers = helpers_of(t);
    std::vector<Token> out;
    for (size_t i = 0, depth = 0, start = 0; i < t.size(); i++) {  // start: of the top-level statement, in out
        const std::string& x = t[i].text;
        out.push_back(t[i]);
        depth += x == "{" ? 1 : x == "}" ? -1 : 0;
        if (depth != 0 || (x != ";" && x != "}")) continue;
        size_t close = out.size() - 2;
        while (close > start && (out[close].text == "const" || out[close].text == "noexcept")) close--;
        const size_t paren = x == ";" && close > start && out[close].text == ")" ? opener(out, close) : 0;
        const bool assigned =
            std::any_of(out.begin() + long(start), out.end(), [](const Token& y) { return y.text == "="; });
        if (paren > start + 1 && helpers.count(out[paren - 1].text) && !assigned) out.resize(start);
        start = out.size();
    }
    t = out;
}

static bool inline_one(std::vector<Token>& t, const std::set<std::string>& handout) {
    for (const auto& [name, f] : helpers_of(t)) {
        size_t returns = 0, ret = f.close;
        for (size_t j = f.open; j < f.close; j++)
            if (t[j].text == "return") returns++, ret = j;
        // One of a single "return EXPRESSION;" is written out at every call, as a macro is
        const bool expression = returns == 1 && ret == f.open + 1;
        bool recursive = false;  // a loop, not any_of: C++17 lambdas cannot capture a structured binding
        for (size_t c : f.calls) recursive = recursive || (c > f.paren && c < f.close);
        if (handout.count(name) || f.calls.empty() || recursive || (f.calls.size() > 1 && !expression)) continue;
        if (returns > 1 || (returns && statement_end(t, ret, f.close) != f.close)) continue;
        // The call's statement: from after the last ; { } else or a loop's or an if's condition, to its ;
        const size_t call = f.calls[0], args_close = matching(t, call + 1, t.size());
        size_t from = call;
        while (from > 0) {
            const std::string& y = t[from - 1].text;
            if (y == ";" || y == "{" || y == "}" || y == "else") break;
            if (y != ")" && y != "]") {
                from--;
                continue;
            }
            const size_t o = opener(t, from - 1);
            if (o > 0 && (t[o - 1].text == "for" || t[o - 1].text == "while" || t[o - 1].text == "if")) break;
            from = o;
        }
        const size_t to = statement_end(t, from, t.size());
        if (to <= args_close || (!returns && (from != call || to != args_close + 2))) continue;
        const auto arguments = comma_pieces(t, call + 2, args_close, false);
        std::map<std::string, std::pair<size_t, size_t>> one_token;  // a parameter, its argument of one token
        std::vector<Token> body{{"{", t[call].line}};
        const auto parameters = comma_pieces(t, f.paren + 1, f.open - 1, true);
        for (size_t k = 0; k < parameters.size() && k < arguments.size(); k++) {
            const size_t p = parameters[k].first, a = arguments[k].first;
            size_t end = p;  // a default value left out
            while (end < parameters[k].second && t[end].text != "=") end++;
            if (end == p || !plain_name(t[end - 1].text)) continue;
            if (arguments[k].second == a + 1) one_token[t[end - 1].text] = arguments[k];
            else {  // TYPE NAME = ARGUMENT;
                body.insert(body.end(), t.begin() + long(p), t.begin() + long(end));
                body.push_back({"=", t[call].line});
                body.insert(body.end(), t.begin() + long(a), t.begin() + long(arguments[k].second));
                body.push_back({";", t[call].line});
            }
        }
        auto written = [&](size_t a, size_t b) {  // a..b of the helper's body, a one-token argument put in
            for (size_t j = a; j < b; j++) {
                auto one = one_token.find(t[j].text);
                body.push_back(one == one_token.end() ? t[j] : Token{t[one->second.first].text, t[j].line});
            }
        };
        written(f.open + 1, returns ? ret : f.close);
        body.insert(body.end(), t.begin() + long(from), t.begin() + long(call));
        if (returns) written(ret + 1, f.close - 1);  // the value returned, where the call was
        body.insert(body.end(), t.begin() + long(args_close) + 1, t.begin() + long(to));
        body.push_back({"}", t[call].line});
        std::vector<Token> out(t.begin(), t.begin() + long(std::min(from, f.start)));
        if (f.calls.size() > 1) {  // the definition stays for the other calls
            out.assign(t.begin(), t.begin() + long(from));
            out.insert(out.end(), body.begin(), body.end());
            out.insert(out.end(), t.begin() + long(to), t.end());
        } else if (from < f.start) {  // the call, then the definition: both replaced by the body
            out.insert(out.end(), body.begin(), body.end());
            out.insert(out.end(), t.begin() + long(to), t.begin() + long(f.start));
            out.insert(out.end(), t.begin() + long(f.close) + 1, t.end());
        } else {
            out.insert(out.end(), t.begin() + long(f.close) + 1, t.begin() + long(from));
            out.insert(out.end(), body.begin(), body.end());
            out.insert(out.end(), t.begin() + long(to), t.end());
        }
        t = out;
        return true;
    }
    return false;
}

// A local set once and read once, "TYPE NAME = EXPRESSION; ... NAME ...", read as its expression where it is
// read: a copy that splits an expression into named temporaries, or writes them back in, reads as its
// original (and a helper's parameter set to its argument above as the argument itself). Not a name written
// to again (x = ..., x += ..., ++x): that is a variable, not a temporary.
static size_t declared(const std::vector<Token>& t, size_t from) {  // TYPE... NAME = : NAME's index, or from
    bool type = false;
    size_t j = from;
    for (; j + 1 < t.size() && t[j + 1].text != "="; j++) {
        const std::string& x = t[j].text;
        if (x == "return" || x == "else" || x == "case" || x == "delete" || x == "throw" || x == "goto") return from;
        if (name_start((unsigned char)x[0])) type = true;
        else if (x != "::" && x != "<" && x != ">" && x != "&" && x != "*" && x != ",") return from;
    }
    return type && j + 1 < t.size() && plain_name(t[j].text) ? j : from;
}

static void temporaries_written_out(std::vector<Token>& t) {
    // written to after it (an element or a member too), or before it (++x, its address taken)
    static const std::set<std::string> after = {"=", "+=", "-=", "*=", "/=", "%=", "++", "--", "[", ".", "->"};
    static const std::set<std::string> before = {"++", "--", "&"};
    // matched: a "{"'s "}"; block_end: the "}" that ends each token's block; at: each name's places
    std::vector<size_t> matched(t.size(), t.size()), block_end(t.size()), opens;
    std::map<std::string, std::vector<size_t>> at;
    for (size_t i = 0; i < t.size(); i++)
        if (t[i].text == "{") opens.push_back(i);
        else if (t[i].text == "}" && !opens.empty()) matched[opens.back()] = i, opens.pop_back();
    opens.clear();
    for (size_t i = 0; i < t.size(); i++) {
        if (t[i].text == "}" && !opens.empty()) opens.pop_back();
        block_end[i] = opens.empty() ? t.size() : matched[opens.back()];
        if (t[i].text == "{") opens.push_back(i);
        at[t[i].text].push_back(i);
    }
    std::vector<size_t> skip(t.size(), 0);                           // at a declaration read elsewhere: its end
    std::vector<std::pair<size_t, size_t>> value(t.size(), {0, 0});  // at its one read: its expression
    for (size_t from = 0; from < t.size(); from++) {
        const size_t name = declared(t, from);
        if (name == from || (from > 0 && t[from - 1].text != ";" && t[from - 1].text != "{" && t[from - 1].text != "}"))
            continue;
        const size_t end = statement_end(t, from, t.size());
        const std::vector<size_t>& places = at[t[name].text];
        const auto first = std::lower_bound(places.begin(), places.end(), end);
        const auto last = std::lower_bound(places.begin(), places.end(), block_end[from]);
        if (t[end - 1].text != ";" || last - first != 1) continue;
        if (comma_pieces(t, name + 2, end - 1, false).size() > 1) continue;  // float a = 1, b = 2;
        const size_t use = *first;
        if (use + 1 < t.size() && (after.count(t[use + 1].text) || before.count(t[use - 1].text))) continue;
        skip[from] = end, value[use] = {name + 2, end - 1};
    }
    std::vector<Token> out;
    std::vector<std::pair<size_t, size_t>> todo{{0, t.size()}};  // ranges still to write, the innermost last
    while (!todo.empty()) {
        const size_t k = todo.back().first++;
        if (k >= todo.back().second) todo.pop_back();
        else if (skip[k]) todo.back().first = skip[k];
        else if (value[k].second) todo.push_back(value[k]);
        else out.push_back(t[k]);
    }
    t = out;
}

// Each call written out reads the whole file again: no more than this many tokens read in all (the classes'
// files write out at most 10 calls of files of a few thousand tokens)
constexpr size_t MOST_READ = 2000000;

static std::vector<Token> tokens_of(const std::string& text, const std::set<std::string>& handout) {
    std::vector<Token> raw = stand_ins_written_out(raw_tokens(text)), loops, out;
    // One call fewer each time; a file of helpers calling helpers twice grows no further than 4 times
    const size_t most = 4 * raw.size() + 1000;
    prototypes_dropped(raw);
    for (size_t read = 0; read < MOST_READ && raw.size() < most && inline_one(raw, handout);) read += raw.size();
    temporaries_written_out(raw);
    loops_as_while(raw, 0, raw.size(), loops);
    loops = addresses_as_one(loops);
    number_statements(loops);
    for (Token& t : loops) {
        t.text = normalised(t.text);
        if (t.text.empty()) continue;
        out.push_back(t);
        const size_t n = out.size();  // i++ read as ++i: as a loop's step, or a statement, the same
        if (n > 1 && (t.text == "++" || t.text == "--") && out[n - 2].text == "V")
            std::swap(out[n - 2].text, out[n - 1].text);
    }
    return out;
}
