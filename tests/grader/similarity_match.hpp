// tests/grader/similarity_match.hpp: what similarity.cpp measures, MOSS's winnowing over the tokens of
// similarity_tokens.hpp: each file's fingerprints less the handout's, each weighted by how rare it is in
// the exercise, and each pair's score; the shared regions the page marks.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "judge.hpp"  // fnv1a
#include "similarity_answers.hpp"
#include "similarity_inline.hpp"

// K tokens a fingerprint, the smallest of each W. On the blind class's train set (tests/bench/RESULTS.md),
// K = 8 left fewer copies among independent pairs than 10 or 12, and W = 6 did as well as 4 or 8.
constexpr int K = 8;
constexpr int W = 6;
// A nearly empty file sharing a few fingerprints is no 100% copy: fewer count as this many. 40 rather
// than 20: two short right answers of 20.5 that share the one way to write a softmax's backward.
constexpr size_t FEWEST = 40;
const char* const REFERENCE_NAME = "(reference solution)";
constexpr double WHOLE_SHARE = 0.1;  // of the score, the whole files' shared fingerprints (compare, below)
// Bits are evidence, not proof: a copy that adds up in another order (heldout5 had two) keeps a fifth of its
// score. On the six spent blind sets, 0.8 left as many copies below the line as 1 (184), AUC 34.27 to 34.32.
constexpr double ANSWERS_WEIGHT = 0.8;

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

// Each statement of at least STATEMENT_TOKENS tokens as one more fingerprint: a copy whose code is moved
// into helpers, reordered or split keeps its statements when it loses its runs of K tokens.
constexpr size_t STATEMENT_TOKENS = 5;

static std::vector<uint64_t> statement_hashes(const std::vector<Token>& tokens) {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < tokens.size();) {
        size_t j = i;
        std::string text = "statement";
        for (; j < tokens.size() && tokens[j].statement == tokens[i].statement; j++) text += " " + tokens[j].text;
        if (j - i >= STATEMENT_TOKENS) out.push_back(judge::fnv1a(text));
        i = j;
    }
    return out;
}

// ---------------------------------------------------------------------------
// A file, its fingerprints

struct Document {
    std::string exercise, role, name, path, text;
    std::vector<Token> tokens;
    std::vector<Print> prints;   // winnowed, base code removed, in file order
    std::vector<uint64_t> kept;  // their distinct hashes, sorted
    std::vector<double> weight;  // each one's weight: the rarer in the class, the more it counts
    double total = 0;
    std::string answers_path;  // grade.sh's record of its answers' bits, or none
    Answers answers;
    std::set<std::string> tells;  // the answers on which the exercise's files differ
    std::vector<uint64_t> whole;  // every winnowed hash, the base code's too, distinct and sorted
};

// Each file's answers, the reference's (from its students' files), and the answers that tell files apart.
static void read_all_answers(std::vector<Document>& docs) {
    std::map<std::string, Answers> reference;
    for (Document& d : docs)
        if (d.role == "student") read_answers(d.answers_path, d.answers, reference[d.exercise]);
    std::map<std::string, std::vector<const Answers*>> each;
    for (Document& d : docs) {
        if (d.role == "reference") d.answers = reference[d.exercise];
        if (d.role != "base" && !d.answers.empty()) each[d.exercise].push_back(&d.answers);
    }
    for (Document& d : docs) d.tells = telling(each[d.exercise]);
}

static bool has(const std::vector<uint64_t>& sorted, uint64_t h) {
    return std::binary_search(sorted.begin(), sorted.end(), h);
}

// Fingerprints found in the exercise's base code are dropped: with them the margins are +0.03.
static void fingerprint(std::vector<Document>& docs) {
    std::map<std::string, std::vector<uint64_t>> base;   // each exercise's base code's k-grams, sorted
    std::map<std::string, std::set<std::string>> names;  // each exercise's base code's names: not a helper's
    for (const Document& d : docs)
        if (d.role == "base")
            for (const Token& t : raw_tokens(d.text)) names[d.exercise].insert(t.text);
    for (Document& d : docs) {
        d.tokens = tokens_of(d.text, names[d.exercise]);
        if (d.role != "base") continue;
        const std::vector<uint64_t> h = kgram_hashes(d.tokens), statements = statement_hashes(d.tokens);
        base[d.exercise].insert(base[d.exercise].end(), h.begin(), h.end());
        base[d.exercise].insert(base[d.exercise].end(), statements.begin(), statements.end());
    }
    for (auto& b : base) std::sort(b.second.begin(), b.second.end());
    for (Document& d : docs) {
        if (d.role == "base") continue;
        const std::vector<uint64_t>& handed_out = base[d.exercise];
        for (const Print& p : winnow(kgram_hashes(d.tokens))) {
            d.whole.push_back(p.hash);
            if (!has(handed_out, p.hash)) {
                d.prints.push_back(p);
                d.kept.push_back(p.hash);
            }
        }
        std::sort(d.whole.begin(), d.whole.end());
        d.whole.erase(std::unique(d.whole.begin(), d.whole.end()), d.whole.end());
        for (uint64_t h : statement_hashes(d.tokens))
            if (!has(handed_out, h)) d.kept.push_back(h);
        std::sort(d.kept.begin(), d.kept.end());
        d.kept.erase(std::unique(d.kept.begin(), d.kept.end()), d.kept.end());
    }
    // A fingerprint found in many of the exercise's files is the way everyone writes it: it counts less,
    // log((files + 1) / files with it), as a rare word does in a search engine's ranking.
    std::map<std::pair<std::string, uint64_t>, int> files_with;
    std::map<std::string, int> files;
    for (Document& d : docs) {
        if (d.role == "base") continue;
        files[d.exercise]++;
        for (uint64_t h : d.kept) files_with[{d.exercise, h}]++;
    }
    for (Document& d : docs)
        for (uint64_t h : d.kept) {
            d.weight.push_back(std::log((files[d.exercise] + 1.0) / files_with[{d.exercise, h}]));
            d.total += d.weight.back();
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
    double answers_differ = -1;  // the share of telling answers whose bits differ; -1: not known
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
        if (continues(*pick) && p.at <= out.back().a_last + reach)
            out.back().a_last = p.at, out.back().b_last = pick->at;
        else out.push_back({p.at, p.at, pick->at, pick->at});
    }
    return out;
}

static Pair compare(const Document& a, const Document& b, const std::string& b_name) {
    Pair pair{&a, &b, b_name, 0.0, 0, -1.0};
    double shared = 0;
    for (size_t i = 0; i < a.kept.size(); i++) shared += has(b.kept, a.kept[i]) ? a.weight[i] : 0.0;
    // The smaller file's share (weighted): Jaccard's and Dice's do alike, but fall for a copy padded with dead code.
    const double mean = a.kept.empty() ? 1.0 : a.total / double(a.kept.size());
    const double smaller = std::max(std::min(a.total, b.total), double(FEWEST) * mean);
    pair.similarity = std::min(1.0, shared / smaller);
    // A tenth of the score is the share of the larger file's fingerprints, the handout's code among them:
    // two files made of handout calls (20.3's) share none of their own, and a near-identical pair of them
    // should still outrank two that only call the same functions. On the blind class's sets (AUC summed
    // over 30 exercises) 28.80 against 27.76 without it, and 28.63 with a twentieth.
    size_t both = 0;
    for (uint64_t h : a.whole) both += has(b.whole, h);
    const double whole = double(both) / double(std::max<size_t>(1, std::max(a.whole.size(), b.whole.size())));
    pair.similarity = (1 - WHOLE_SHARE) * pair.similarity + WHOLE_SHARE * whole;
    // A copy computes what its original does, in the same order: answers that differ in their bits take
    // ANSWERS_WEIGHT of their share of the score away (tests/bench/RESULTS.md).
    pair.answers_differ = share_differing(a.answers, b.answers, a.tells);
    if (pair.answers_differ > 0) pair.similarity *= 1 - ANSWERS_WEIGHT * pair.answers_differ;
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
