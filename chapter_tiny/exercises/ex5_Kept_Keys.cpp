// ex5_Kept_Keys.cpp: exercise tiny.5, attention for one new letter from kept keys and values.
// Book section: tiny.5 (exercise tiny.5)
// Exercise: tiny.5
// Builds on: tiny.1
//
// Write one function (its signature is fixed; the grader calls it):
//
//   void attend_cached(float* found, const float* query, const float* keys, const float* values, int T);
//
// A writer that keeps every letter's key and value (tiny_5_Kept_Keys) reads a
// new letter against what it kept, instead of sending the whole window through
// attend_forward again: do not call attend_forward from attend_cached (the
// grader's refuses to run there, and the test scores 0). keys and values hold T
// rows of WIDTH numbers, one per letter in seat order, the new letter's own row
// last (1 <= T <= SEATS); query holds the new letter's WIDTH numbers. As in
// attend_forward, head h reads numbers [h * SIZE, (h + 1) * SIZE) of each row:
// its score for letter s is the dot product of those numbers of the query and
// of s's key, times 1 / sqrt(SIZE);
// softmax turns the T scores into weights (all T letters come before or at the
// new one, so none is masked); and found's numbers [h * SIZE, (h + 1) * SIZE)
// are the sum of s's values, each times its weight. Subtract the largest score
// before exp: the grader's scores reach the hundreds. Write all WIDTH numbers of
// found: the grader hands you a buffer that holds rubbish.
//
// The grader runs attend_forward on the whole window (random windows, and the
// trained model on the chapter's sentence and on hidden text) and compares your
// found with its last row: each number may differ from its by 1e-4 times the two
// numbers' sizes added (|yours| + |its|), or by 1e-6 times the row's largest
// number where that is more. The same float operations in attend_forward's
// order (the dot product over i in order, times the scale, the largest
// subtracted, exp_f, the sum, each weight divided by it, then the mix) give its
// bits exactly; another order is fine within the tolerance.
//
// main then checks your attend_cached letter by letter against attend_forward
// on the trained model's first block, and prints what keeping the keys saves.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../tiny_checkpoint.hpp"
#include "../tiny_model.hpp"

// Your attend_cached goes here. In the repository it is tiny_model.hpp's own,
// which this file then uses; in the handout the header only declares it.
// BEGIN SOLUTION: write attend_cached (the statement above says what it writes)
// STUB: void attend_cached(float* found, const float* query, const float* keys, const float* values, int T) {
// STUB:     for (int i = 0; i < WIDTH; i++) found[i] = 0.0f;
// STUB:     (void)query, (void)keys, (void)values, (void)T;
// STUB: }
// END SOLUTION

// ---------------------------------------------------------------------------
// The lesson: the first block of the trained model, read one letter at a time.

// The first of found's WIDTH numbers outside the statement's tolerance of want's,
// or -1: the grader's test (tests/grader/tiny.5.cpp) calls this one too.
static int outside_tolerance(const float* found, const float* want) {
    float largest = 0.0f;
    for (int i = 0; i < WIDTH; i++) largest = std::max(largest, std::fabs(want[i]));
    for (int i = 0; i < WIDTH; i++) {
        const float size = std::max(std::fabs(found[i]) + std::fabs(want[i]), 1e-2f * largest);
        if (!(std::fabs(found[i] - want[i]) <= 1e-4f * size)) return i;
    }
    return -1;
}

const char* const SENTENCE = "The bag didn't fit in the car because it was too small";

int main() {
    TinyModel model = load_model("chapter_tiny/shakespeare.tiny");
    const std::vector<int> ids = encode(model, SENTENCE);
    const int T = int(ids.size());
    Tape tape(model.V);
    forward(model, ids.data(), T, tape);
    const float* lookups = tape.block[0].lookups;  // (T,3W) each letter's query, key and value

    // The whole window at once, as the chapter reads it.
    std::vector<float> whole(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);  // (T,W), (HEADS,T,T)
    attend_forward(whole.data(), weights.data(), lookups, T);

    // One letter at a time, each reading the keys and values kept from the letters before it.
    std::vector<float> keys, values;  // (t+1,W) each: grows by a row per letter
    int same = 0;
    std::vector<float> found(WIDTH);  // (W) what the newest letter finds
    for (int t = 0; t < T; t++) {
        const float* row = lookups + t * 3 * WIDTH;
        keys.insert(keys.end(), row + WIDTH, row + 2 * WIDTH);
        values.insert(values.end(), row + 2 * WIDTH, row + 3 * WIDTH);
        attend_cached(found.data(), row, keys.data(), values.data(), t + 1);
        same += outside_tolerance(found.data(), whole.data() + size_t(t) * WIDTH) < 0;
    }

    std::printf("Your attend_cached on the first block's lookups for \"%s\" (%d letters),\n", SENTENCE, T);
    std::printf("one letter at a time, against attend_forward on the whole sentence:\n\n");
    std::printf("  letters that find attend_forward's row (within the statement's 1e-4): %d of %d\n\n", same, T);

    // Attention's multiply-adds for the last letter (8 per head for each score, 8 for each value).
    const long kept = 2L * WIDTH * T, again = long(WIDTH) * T * (T + 1);
    std::printf("Attention's multiply-adds for letter %d: %ld from the kept keys and values,\n", T - 1, kept);
    std::printf("%ld re-reading the window (every letter's row again): %.1f times as many.\n", again,
                double(again) / double(kept));
    const int last = T - 1;
    std::printf("\nWhat letter %d ('%c') finds with head 1, its first 4 numbers:", last, SENTENCE[last]);
    for (int i = 0; i < 4; i++) std::printf(" %+.4f", found[i]);
    std::printf("\n");
    return 0;
}
