// Exercise: tiny.5
// Attack: lookup/whole_window
// Rule: under 30%
// Why: no kept keys at all: attend_cached rebuilds the window (every row the new letter's query beside a kept key and value), runs the chapter's attend_forward on all of it and keeps its last row. Right numbers, the work the exercise saves done again; it scored 10/10 at every seed before the box's attend_forward refused to run inside attend_cached.
//@ helpers
#include <vector>
//@ body attend_cached
    std::vector<float> lookups(size_t(T) * 3 * WIDTH), whole(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);
    for (int s = 0; s < T; s++)
        for (int i = 0; i < WIDTH; i++) {
            lookups[size_t(s) * 3 * WIDTH + i] = query[i];
            lookups[size_t(s) * 3 * WIDTH + WIDTH + i] = keys[s * WIDTH + i];
            lookups[size_t(s) * 3 * WIDTH + 2 * WIDTH + i] = values[s * WIDTH + i];
        }
    attend_forward(whole.data(), weights.data(), lookups.data(), T);
    for (int i = 0; i < WIDTH; i++) found[i] = whole[size_t(T - 1) * WIDTH + i];
}
