// tests/grader/similarity_tokens.hpp: a C++ file read as a list of normalised tokens: names, numbers and
// strings each one token, separators and qualifiers gone (similarity_rewrites.hpp then rewrites the list).
#pragma once
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

struct Token {
    std::string text;   // after normalisation: a keyword, an operator, V, N, S, LOOP
    int line;           // where it stands in the file, from 1
    int statement = 0;  // which statement it is part of, counted from the file's start
};

static bool name_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
static bool name_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Names kept as they are: a student cannot rename them, and they say what the code does.
static const std::set<std::string>& kept_names() {
    static const std::set<std::string> names = {"alignas",
                                                "alignof",
                                                "and",
                                                "and_eq",
                                                "asm",
                                                "bitand",
                                                "bitor",
                                                "bool",
                                                "break",
                                                "case",
                                                "catch",
                                                "char",
                                                "class",
                                                "compl",
                                                "continue",
                                                "decltype",
                                                "default",
                                                "delete",
                                                "else",
                                                "enum",
                                                "explicit",
                                                "export",
                                                "extern",
                                                "false",
                                                "friend",
                                                "goto",
                                                "if",
                                                "namespace",
                                                "new",
                                                "noexcept",
                                                "not",
                                                "not_eq",
                                                "nullptr",
                                                "operator",
                                                "or",
                                                "or_eq",
                                                "private",
                                                "protected",
                                                "public",
                                                "return",
                                                "sizeof",
                                                "static_assert",
                                                "static_cast",
                                                "dynamic_cast",
                                                "const_cast",
                                                "reinterpret_cast",
                                                "struct",
                                                "switch",
                                                "template",
                                                "this",
                                                "throw",
                                                "true",
                                                "try",
                                                "typedef",
                                                "typeid",
                                                "typename",
                                                "union",
                                                "using",
                                                "virtual",
                                                "void",
                                                "xor",
                                                "xor_eq",
                                                "wchar_t",
                                                "char16_t",
                                                "char32_t",
                                                "vector",
                                                "string",
                                                "array",
                                                "pair",
                                                "map",
                                                "set",
                                                "sqrt",
                                                "exp",
                                                "log",
                                                "pow",
                                                "fabs",
                                                "abs",
                                                "max",
                                                "min",
                                                "swap",
                                                "fill",
                                                "copy",
                                                "sort",
                                                "accumulate",
                                                "inner_product",
                                                "tanh",
                                                "printf",
                                                "fprintf",
                                                "snprintf",
                                                "puts",
                                                "cout",
                                                "cerr",
                                                "endl",
                                                "size",
                                                "data",
                                                "push_back",
                                                "emplace_back",
                                                "resize",
                                                "assign",
                                                "begin",
                                                "end",
                                                "at",
                                                "front",
                                                "back",
                                                "empty",
                                                "clear",
                                                "memset",
                                                "memcpy",
                                                "assert",
                                                "numeric_limits",
                                                "infinity",
                                                "move",
                                                "make_pair",
                                                "first",
                                                "second",
                                                "isnan",
                                                "isfinite",
                                                "nullptr_t"};
    return names;
}

static std::string normalised(const std::string& raw) {
    static const std::set<std::string> dropped = {
        // separators: where they go changes with a loop's form and brace style
        "(", ")", "{", "}", ";", "::",
        // qualifiers a copier adds or removes freely
        "const", "constexpr", "static", "inline", "volatile", "register", "mutable", "std"};
    static const std::set<std::string> types = {"float",    "double",   "int",     "long", "short",
                                                "unsigned", "signed",   "size_t",  "auto", "int64_t",
                                                "int32_t",  "uint64_t", "uint32_t"};
    if (dropped.count(raw)) return "";
    if (raw == "for" || raw == "while" || raw == "do") return "LOOP";
    // float turned into double, int into size_t: the same code (0.03 of tiny.2's margin)
    if (types.count(raw)) return "TYPE";
    if (name_start(raw[0]) && !kept_names().count(raw)) return "V";
    return raw;
}

static std::vector<Token> raw_tokens(const std::string& s) {
    static const char* const operators[] = {">>=", "<<=", "<=>", "...", "->*", "::", "->", "++", "--",
                                            "<<",  ">>",  "<=",  ">=",  "==",  "!=", "&&", "||", "+=",
                                            "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", ".*", "##"};
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
        if (c == '\n') {
            line++, i++, line_start = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
            i += 2, line++;
            continue;
        }
        if (s.compare(i, 2, "//") == 0) {
            skip_to_line_end();
            continue;
        }
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
            if (s.compare(j, 7, "include") == 0 || s.compare(j, 6, "pragma") == 0) {
                skip_to_line_end();
                continue;
            }
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
