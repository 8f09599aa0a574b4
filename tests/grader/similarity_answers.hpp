// tests/grader/similarity_answers.hpp: what two files computed, beside how they read: the bits of their
// answers to the grader's tests (run.hpp's record_answers, kept by grade.sh for grade-class).
// A disguise changes names, loops and layout, not the order of a sum, so a copy returns its original's
// bits; two right answers that add up in another order differ in the last bits.
#pragma once
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "judge.hpp"  // read_text, fields

// "test label" -> the hash of that answer's bits.
using Answers = std::map<std::string, std::string>;

// A file's answers, and the reference's beside them ("test, label, mine, the reference's" lines). A
// missing file (it did not compile, or it was not graded) is no answers: no evidence either way.
static void read_answers(const std::string& path, Answers& mine, Answers& reference) {
    std::string text;
    if (path.empty() || !judge::read_text(path, text)) return;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::vector<std::string> f = judge::fields(line);
        if (f.size() != 4) continue;  // a test process stopped mid-line
        mine[f[0] + " " + f[1]] = f[2];
        if (f[3] != "-") reference[f[0] + " " + f[1]] = f[3];  // a property test has none
    }
}

// The answers on which the exercise's files do not all agree: only they tell two files apart.
static std::set<std::string> telling(const std::vector<const Answers*>& files) {
    std::map<std::string, std::set<std::string>> values;
    for (const Answers* a : files)
        for (const auto& kv : *a) values[kv.first].insert(kv.second);
    std::set<std::string> out;
    for (const auto& kv : values)
        if (kv.second.size() > 1) out.insert(kv.first);
    return out;
}

// The share of the telling answers both files gave on which their bits differ; -1 when there are none.
static double share_differing(const Answers& a, const Answers& b, const std::set<std::string>& tells) {
    int both = 0, differ = 0;
    for (const std::string& key : tells) {
        const auto x = a.find(key), y = b.find(key);
        if (x == a.end() || y == b.end()) continue;  // one of them crashed there
        both++;
        differ += x->second != y->second;
    }
    return both ? double(differ) / both : -1.0;
}
