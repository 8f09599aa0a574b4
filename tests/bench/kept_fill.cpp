// tests/bench/kept_fill.cpp (make bench): how long the 63 letters after a
// one-letter prompt take while the window fills, read with kept keys
// (chapter_tiny/tiny_5_Kept_Keys.cpp's read_letter) and the plain way
// (tiny_generate's forward_last_fast over the whole window, once a letter).
// One fill takes well under a millisecond with kept keys, less than starting
// the program does, so it is timed here, inside one process, not as whole runs
// less runs that write nothing (two noisy times subtracted went negative under
// load). Drawing the next letter is left out: both read the same fixed letters.
// Prints "<plain seconds> <kept seconds>" for one fill, each the best of RUNS batches.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define main kept_keys_main  // the lesson's own main, not run here
#include "../../chapter_tiny/tiny_5_Kept_Keys.cpp"
#undef main
#include "tiny_model_fast.hpp"

// The best time of `runs` batches of `fills` calls of fill(), per fill.
template <class Fill>
static double best_per_fill(int runs, int fills, Fill fill) {
    double best = 1e30;
    for (int r = 0; r < runs; r++) {
        const auto start = std::chrono::steady_clock::now();
        for (int f = 0; f < fills; f++) fill();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count() / fills);
    }
    return best;
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    const TinyModel model = load_model(MODEL_FILE);  // make bench runs from the top folder;
    int ids[SEATS];  // a prompt letter and the 63 after it: any letters do, the work is the same
    for (int t = 0; t < SEATS; t++) ids[t] = (7 * t + 3) % model.V;
    std::vector<float> logits(model.V);
    float sink = 0;  // read from every fill's logits, so that none is left out as unused

    Tape tape(model.V);
    const double plain = best_per_fill(runs, 20, [&] {
        for (int T = 2; T <= SEATS; T++) forward_last_fast(model, ids, T, tape);
        sink += tape.logits[(SEATS - 1) * model.V];
    });
    static KeptKeys cache;                             // static: two blocks' keys and values, 32 KB, off the stack
    read_letter(model, cache, ids[0], logits.data());  // the prompt, in seat 0, once: each fill starts after it
    const double kept = best_per_fill(runs, 400, [&] {
        cache.T = 1;
        for (int t = 1; t < SEATS; t++) read_letter(model, cache, ids[t], logits.data());
        sink += logits[0];
    });
    std::printf("%.9f %.9f\n", plain, kept);
    return sink == 12345.0f ? 1 : 0;  // never: only so that sink is used
}
