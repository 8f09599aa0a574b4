// tests/grader/tiny.5.cpp: the tests of exercise tiny.5 (chapter_tiny/exercises/ex5_Kept_Keys.cpp),
// attend_cached, checked against the chapter's attend_forward run on the whole window.
// Files: chapter_tiny/shakespeare.tiny
//
// attend_cached must read the kept keys, not run the whole window again: the header's
// attend_forward takes another name here, before the exercise's file includes the header, and
// attend_forward is a guard that refuses to run while attend_cached is being tested.
#define attend_forward attend_forward_whole_window
#include "tiny_model.hpp"
#undef attend_forward
static bool testing_attend_cached = false, whole_window_refused = false;
inline void attend_forward(float* found, float* weights, const float* lookups, int T) {
    if (testing_attend_cached) whole_window_refused = true;
    else attend_forward_whole_window(found, weights, lookups, T);
}
#include "grader.hpp"

#include <limits>

// What attend_cached writes into a buffer that starts full of rubbish (NaN), as the statement
// warns; query (W), keys and values (T,W) are exactly T rows long. Nothing when it called attend_forward.
static std::vector<float> run_attend_cached(const std::vector<float>& query, const std::vector<float>& keys,
                                            const std::vector<float>& values, int T) {
    std::vector<float> found(WIDTH, std::numeric_limits<float>::quiet_NaN());
    testing_attend_cached = true, whole_window_refused = false;
    attend_cached(found.data(), query.data(), keys.data(), values.data(), T);
    testing_attend_cached = false;
    return whole_window_refused ? std::vector<float>() : found;
}

// The functions the student writes (through their adapters): the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(run_attend_cached)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// The newest letter of a window of lookups (T,3W), read from kept keys and values.
static std::vector<float> newest_from_kept(Test& t, const std::vector<float>& lookups, int T) {
    std::vector<float> query(lookups.end() - 3 * WIDTH, lookups.end() - 2 * WIDTH), keys, values;
    for (int s = 0; s < T; s++) {
        const auto row = lookups.begin() + s * 3 * WIDTH;
        keys.insert(keys.end(), row + WIDTH, row + 2 * WIDTH);
        values.insert(values.end(), row + 2 * WIDTH, row + 3 * WIDTH);
    }
    const std::vector<float> found = run_attend_cached(query, keys, values, T);
    t.expect(!found.empty(),
             "attend_cached called attend_forward on the whole window; the exercise is to use the "
             "kept keys");
    return found;
}

// The reference: the chapter's attend_forward on the whole window, its last row.
static std::vector<float> last_row_of_attend_forward(const std::vector<float>& lookups, int T) {
    std::vector<float> found(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);
    attend_forward(found.data(), weights.data(), lookups.data(), T);
    return std::vector<float>(found.end() - WIDTH, found.end());
}

// The statement's tolerance, as the exercise's own outside_tolerance (the reference's, in the checker) applies it.
static void expect_last_row(Test& t, const std::vector<float>& lookups, int T, const char* what) {
    const std::vector<float> found = newest_from_kept(t, lookups, T), want = last_row_of_attend_forward(lookups, T);
    const int i = outside_tolerance(found.data(), want.data());
    if (i >= 0)
        t.expect(false, "%s, T = %d: found[%d] (head %d) is %g; attend_forward's last row has %g", what, T, i, i / SIZE,
                 double(found[i]), double(want[i]));
}

// A window of one letter: it reads only itself, with weight 1, and finds its own value. The
// same input at every seed, and first: a test on no hidden input shows its message on Gradescope.
static void one_letter(Test& t) {
    std::vector<float> lookups(3 * WIDTH);
    for (int i = 0; i < 3 * WIDTH; i++) lookups[size_t(i)] = float((i * 7) % 13 - 6) / 4.0f;
    expect_last_row(t, lookups, 1, "one letter");
}

static void random_windows(Test& t) {
    for (int round = 0; round < 6; round++) {
        const int T = round == 0 ? SEATS : t.size(2, SEATS);
        expect_last_row(t, t.vector(T * 3 * WIDTH, -2.0f, 2.0f), T, "random lookups");
    }
}

// Queries of +-8 and keys of 7 to 9 in eighths: every score about +-181, past
// where exp overflows a float (88.7) or gives 0 for every letter. Values of 1
// to 2, so that found cannot cancel the rounding of a score into more.
static std::vector<float> loud_window(Test& t, int T, float sign) {
    std::vector<float> lookups = t.vector(T * 3 * WIDTH, 1.0f, 2.0f);
    for (int s = 0; s < T; s++)
        for (int i = 0; i < 2 * WIDTH; i++)
            lookups[size_t(s) * 3 * WIDTH + i] = i < WIDTH ? sign * 8.0f : 7.0f + float(t.size(0, 16)) / 8.0f;
    return lookups;
}

static void scores_in_the_hundreds(Test& t) {
    for (float sign : {1.0f, -1.0f}) {
        const int T = t.size(2, SEATS);
        expect_last_row(t, loud_window(t, T, sign), T, sign > 0 ? "scores near +181" : "scores near -181");
    }
    // The same worst case at every seed: all scores tied at -181 (a largest started at 0 is not subtracted).
    std::vector<float> tied(size_t(5) * 3 * WIDTH);
    for (int s = 0; s < 5; s++)
        for (int i = 0; i < 3 * WIDTH; i++)
            tied[size_t(s) * 3 * WIDTH + i] = i < WIDTH ? -8.0f : i < 2 * WIDTH ? 8.0f : float(1 + (s + i) % 4);
    expect_last_row(t, tied, 5, "five letters tied at -181");
}

// The trained model read one letter at a time, each letter against the keys kept before it: the
// chapter's sentence in the first block, then a hidden text of 2 to 64 of its letters in both
// blocks (an answer that knows the book's letters only is not enough).
static void the_model(Test& t) {
    TinyModel model = load_model("chapter_tiny/shakespeare.tiny");
    std::vector<int> hidden(size_t(t.size(2, SEATS)));
    for (int& id : hidden) id = t.size(0, model.V - 1);
    const std::vector<int> texts[2] = {encode(model, "The bag didn't fit in the car because it was too small"), hidden};
    std::vector<float> found;
    for (int k = 0; k < 2; k++) {
        Tape tape(model.V);
        forward(model, texts[k].data(), int(texts[k].size()), tape);
        for (int block = 0; block < (k == 0 ? 1 : BLOCKS); block++)
            for (int T = 1; T <= int(texts[k].size()); T++) {
                const float* lookups = tape.block[block].lookups;
                const std::vector<float> newest = newest_from_kept(t, {lookups, lookups + size_t(T) * 3 * WIDTH}, T);
                found.insert(found.end(), newest.begin(), newest.end());
            }
    }
    t.numbers("found", found);
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("one_letter", 1, one_letter, "with T = 1 the letter reads only itself"),
            grader::property("random_windows", 4, random_windows,
                             "head h scores the query's numbers h*SIZE to (h+1)*SIZE against each kept key's, times "
                             "1 / sqrt(SIZE), over all T letters, the newest's own key last"),
            grader::property("scores_in_the_hundreds", 2, scores_in_the_hundreds,
                             "subtract the largest of the T scores before exp, as softmax does"),
            grader::compare("the_model", 2, 1e-4, the_model,
                            "on the trained model's lookups your attend_cached should agree with attend_forward"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
