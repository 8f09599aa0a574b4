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


static void hidden_found(Test& t) {
    for (int round = 0; round < 4; round++) {
        const int T = t.size(1, SEATS);
        std::vector<float> lookups = t.vector(T * 3 * WIDTH, -2.0f, 2.0f);
        t.numbers(("found_" + std::to_string(round)).c_str(), run_attend_forward(lookups, T).found);
    }
}

static void hidden_weights(Test& t) {
    for (int round = 0; round < 4; round++) {
        const int T = t.size(1, SEATS);
        std::vector<float> lookups = t.vector(T * 3 * WIDTH, -2.0f, 2.0f);
        t.numbers(("weights_" + std::to_string(round)).c_str(), run_attend_forward(lookups, T).weights);
    }
}

static void nothing_above_the_diagonal(Test& t) {
    for (int round = 0; round < 10; round++) {
        const int T = t.size(1, SEATS);
        Run r = run_attend_forward(t.vector(T * 3 * WIDTH, -2.0f, 2.0f), T);
        for (int h = 0; h < HEADS; h++)
            for (int i = 0; i < T; i++) {
                double sum = 0.0;
                for (int s = 0; s < T; s++) {
                    const float w = r.weights[(size_t(h) * T + i) * T + s];
                    if (s > i) t.expect(w == 0.0f, "T = %d, head %d: letter %d's weight on the later letter %d is %g, "
                                        "not 0", T, h, i, s, double(w));
                    t.expect(w >= 0.0f, "T = %d, head %d: a negative weight (%g)", T, h, double(w));
                    sum += w;
                }
                t.expect(std::fabs(sum - 1.0) < 1e-5, "T = %d, head %d: letter %d's weights add up to %.7f, not 1", T,
                         h, i, sum);
            }
    }
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
            t.expect(before.found[i] == after.found[i], "T = %d: changing letters %d and later changed what letter "
                     "%zu finds", T, cut, i / WIDTH);
        bool moved = false;  // while the first changed letter, which reads itself, finds something else
        for (size_t i = size_t(cut) * WIDTH; i < size_t(cut + 1) * WIDTH; i++) moved = moved || before.found[i] != after.found[i];
        t.expect(moved, "T = %d: changing letter %d's lookups left what it finds as it was, but it reads itself", T, cut);
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
    return grader::run(argc, argv, GRADER_LESSON(lesson_main), {
        grader::compare("hidden_found", 3, 1e-4, hidden_found,
                        "head h uses numbers h*SIZE to (h+1)*SIZE of each query, key and value; keys start at "
                        "WIDTH and values at 2*WIDTH in a letter's row of 3*WIDTH"),
        grader::compare("hidden_weights", 2, 1e-4, hidden_weights,
                        "scores are query . key times 1 / sqrt(SIZE); softmax over s = 0..t only; weights are laid "
                        "out [head][t][s] with stride T"),
        grader::property("nothing_above_the_diagonal", 2, nothing_above_the_diagonal,
                         "write a 0 for every s > t (the buffer you are given is not zero), and make each row "
                         "add up to 1"),
        grader::property("no_peeking", 1, no_peeking, "letter t may read letters 0..t only"),
        grader::compare("the_model", 1, 1e-4, the_model,
                        "on the trained model's lookups your attend_forward should agree with the chapter's"),
        grader::printed_output(1, "run your program: it should print what the reference prints"),
    });
}
#endif
