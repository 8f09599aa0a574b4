// tests/grader/tiny.1.cpp: the tests of exercise tiny.1 (chapter_tiny/exercises/ex1_Attend.cpp),
// attend_forward on random lookups of random lengths.
// Files: chapter_tiny/shakespeare.tiny
#include "grader.hpp"

#include <limits>

// What attend_forward writes, on buffers that start full of rubbish (NaN), as the
// statement warns: the adapter gives the pointers their buffers, in the
// student's process, and sends both back.
struct Run {
    std::vector<float> found, weights;
};
GRADER_FIELDS(Run, found, weights)
static Run run_attend_forward(const std::vector<float>& lookups, int T) {
    const float rubbish = std::numeric_limits<float>::quiet_NaN();
    Run r{std::vector<float>(size_t(T) * WIDTH, rubbish), std::vector<float>(size_t(HEADS) * T * T, rubbish)};
    attend_forward(r.found.data(), r.weights.data(), lookups.data(), T);
    return r;
}

// The functions the student writes (through their adapters): the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(run_attend_forward)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// Lookups that make every score about +-180: exp of a raw score overflows a float
// (past 88.7) or underflows to 0, so only a softmax that subtracts the row's largest
// score first gives finite weights. The queries' and keys' numbers are multiples of
// 1/8, so their dot products are exact in float; each score is still rounded to
// float (off by up to 1e-5 at 180), which moves the weights by about 1e-5 of
// themselves, so the values are positive (1 to 2), where found cannot cancel and
// magnify that: a double answer agrees with the float reference to about 2e-5.
static std::vector<float> large_lookups(Test& t, int T, float sign) {
    std::vector<float> lookups = t.vector(T * 3 * WIDTH, 1.0f, 2.0f);
    for (int s = 0; s < T; s++)
        for (int i = 0; i < 2 * WIDTH; i++) {
            const float eighths = float(int(t.uniform(-8.0f, 8.0f)));
            lookups[size_t(s) * 3 * WIDTH + i] = (i < WIDTH ? sign : 1.0f) * 8.0f + eighths / 8.0f;
        }
    return lookups;
}

// Four random problems, then two whose scores are in the hundreds (one of each sign).
static std::vector<float> hidden_lookups(Test& t, int round, int T) {
    if (round < 4) return t.vector(T * 3 * WIDTH, -2.0f, 2.0f);
    return large_lookups(t, T, round == 4 ? 1.0f : -1.0f);
}

// The same worst case at every seed: 4 letters whose every score is about -180
// (exp gives 0 unless the row's largest is subtracted; a largest started at 0 is
// not), letters 0 to 2 tied for the largest, letter 3 a little above them.
constexpr int FIXED_T = 4;
static std::vector<float> fixed_lookups() {
    std::vector<float> lookups(size_t(FIXED_T) * 3 * WIDTH);
    for (int s = 0; s < FIXED_T; s++)
        for (int i = 0; i < 3 * WIDTH; i++)
            lookups[size_t(s) * 3 * WIDTH + i] = i < WIDTH       ? -8.0f
                                                 : i < 2 * WIDTH ? (s == 3 ? 7.875f : 8.0f)
                                                                 : 1.0f + float((s + i) % 8) / 8.0f;
    return lookups;
}

// The weights' layout rules, on the student's answer: 0 above the diagonal, no
// negative weight, every row adding up to 1 (uniform weights pass these; the
// compare with the reference's numbers is what they do not pass).
static void expect_weights_shape(Test& t, const Run& r, int T) {
    for (int h = 0; h < HEADS; h++)
        for (int i = 0; i < T; i++) {
            double sum = 0.0;
            for (int s = 0; s < T; s++) {
                const float w = r.weights[(size_t(h) * T + i) * T + s];
                if (s > i)
                    t.expect(w == 0.0f,
                             "T = %d, head %d: letter %d's weight on the later letter %d is %g, "
                             "not 0",
                             T, h, i, s, double(w));
                t.expect(w >= 0.0f, "T = %d, head %d: a weight is %g, not a number of 0 or more", T, h, double(w));
                sum += w;
            }
            t.expect(std::fabs(sum - 1.0) < 1e-5, "T = %d, head %d: letter %d's weights add up to %.7f, not 1", T, h, i,
                     sum);
        }
}

static void hidden_found(Test& t) {
    for (int round = 0; round < 6; round++) {
        const int T = t.size(1, SEATS);
        const std::vector<float> lookups = hidden_lookups(t, round, T);
        t.numbers(("found_" + std::to_string(round)).c_str(), run_attend_forward(lookups, T).found);
    }
    t.numbers("found_fixed", run_attend_forward(fixed_lookups(), FIXED_T).found);
}

static void hidden_weights(Test& t) {
    for (int round = 0; round < 6; round++) {
        const int T = t.size(1, SEATS);
        const std::vector<float> lookups = hidden_lookups(t, round, T);
        const Run r = run_attend_forward(lookups, T);
        expect_weights_shape(t, r, T);
        t.numbers(("weights_" + std::to_string(round)).c_str(), r.weights);
    }
    const Run r = run_attend_forward(fixed_lookups(), FIXED_T);
    expect_weights_shape(t, r, FIXED_T);
    t.numbers("weights_fixed", r.weights);
}

// Changing the later letters' lookups changes nothing the earlier letters find.
static void no_peeking(Test& t) {
    for (int round = 0; round < 5; round++) {
        const int T = t.size(2, SEATS), cut = t.size(1, T - 1);
        std::vector<float> lookups = t.vector(T * 3 * WIDTH, -2.0f, 2.0f);
        Run before = run_attend_forward(lookups, T);
        for (size_t i = size_t(cut) * 3 * WIDTH; i < lookups.size(); i++) lookups[i] = t.uniform(-2.0f, 2.0f);
        Run after = run_attend_forward(lookups, T);
        for (size_t i = 0; i < size_t(cut) * WIDTH; i++)
            t.expect(before.found[i] == after.found[i],
                     "T = %d: changing letters %d and later changed what letter "
                     "%zu finds",
                     T, cut, i / WIDTH);
        bool moved = false;  // while the first changed letter, which reads itself, finds something else
        for (size_t i = size_t(cut) * WIDTH; i < size_t(cut + 1) * WIDTH; i++)
            moved = moved || before.found[i] != after.found[i];
        t.expect(moved, "T = %d: changing letter %d's lookups left what it finds as it was, but it reads itself", T,
                 cut);
        for (size_t i = 0; i < size_t(HEADS) * T * T; i++) {
            const size_t row = (i / T) % T, s = i % T;  // weights[(h * T + row) * T + s]
            if (row < size_t(cut) && s <= row)          // (above the diagonal is hidden_weights' to check)
                t.expect(before.weights[i] == after.weights[i],
                         "T = %d: changing letters %d and later changed "
                         "letter %zu's weights",
                         T, cut, row);
        }
        // The weights read the keys: a new key for letter cut (cut >= 1) moves, in every head, how
        // letter cut shares itself out between letters 0..cut.
        std::vector<float> rekeyed = lookups;
        for (int i = 0; i < WIDTH; i++) rekeyed[size_t(cut) * 3 * WIDTH + WIDTH + i] = t.uniform(-2.0f, 2.0f);
        const Run keyed = run_attend_forward(rekeyed, T);
        for (int h = 0; h < HEADS; h++) {
            bool shifted = false;
            for (int s = 0; s <= cut; s++) {
                const size_t at = (size_t(h) * T + cut) * T + s;
                shifted = shifted || after.weights[at] != keyed.weights[at];
            }
            t.expect(shifted,
                     "T = %d, head %d: a new key for letter %d left letter %d's weights as they were: a "
                     "weight comes from its query . key score",
                     T, h, cut, cut);
        }
    }
}

// The trained model's first block, reading the chapter's sentence.
static void the_model(Test& t) {
    TinyModel model = load_model("chapter_tiny/shakespeare.tiny");
    const std::vector<int> ids = encode(model, SENTENCE);
    const int T = int(ids.size());
    Tape tape(model.V);
    forward(model, ids.data(), T, tape);
    std::vector<float> lookups(tape.block[0].lookups, tape.block[0].lookups + size_t(T) * 3 * WIDTH);
    Run r = run_attend_forward(lookups, T);
    t.numbers("found", r.found);
    t.numbers("weights", r.weights);
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare("hidden_found", 3, 1e-4, hidden_found,
                            "head h uses numbers h*SIZE to (h+1)*SIZE of each query, key and value; keys start at "
                            "WIDTH and values at 2*WIDTH in a letter's row of 3*WIDTH"),
            grader::compare(
                "hidden_weights", 3, 1e-4, hidden_weights,
                "scores are query . key times 1 / sqrt(SIZE); softmax over s = 0..t only, its largest score "
                "subtracted first; write a 0 for every s > t; weights are laid out [head][t][s] with stride T"),
            grader::property("no_peeking", 2, no_peeking,
                             "letter t may read letters 0..t only, and each weight comes "
                             "from the query . key score"),
            grader::compare("the_model", 1, 1e-4, the_model,
                            "on the trained model's lookups your attend_forward should agree with the chapter's"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
