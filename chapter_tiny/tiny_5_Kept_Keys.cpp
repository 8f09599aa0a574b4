// tiny_5_Kept_Keys.cpp: writing with a key/value cache: each new letter is read
// once, against the keys and values kept from the letters before it.
// Book section: tiny.5 (past the chapter: what comes right after it)
//
// tiny_generate re-reads its whole window for every letter it writes: the
// 50th letter sends all 50 letters through both blocks again. Yet no letter
// reads ahead (no peeking), so the 49 before it come out exactly as they did
// last time, and all the new letter needs of them is their keys and values.
// So keep those, block by block: each new letter makes its own query, key and
// value once, keeps its key and value, and reads the kept ones. The letters
// are tiny_generate's at the same seed and options, bit for bit: every number
// is the same float operations in the same order as the plain forward pass.
// Then the multiply-adds per letter with the cache and without, counted as
// the loops ran, and what happens when the 64 seats are full.
//
//   tiny_5_Kept_Keys --prompt "ROMEO:" --length 200 --temperature 0.8 --seed 1
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tiny_checkpoint.hpp"       // load_model, encode
#include "tiny_model.hpp"            // the plain layers, one letter's row of each; attend_cached; sample_next
#include "tiny_model_path.hpp"       // model_option
#include "tiny_writing_options.hpp"  // writing_options: tiny_generate's --prompt, --length, --temperature, --seed

// ---------------------------------------------------------------------------
// The cache: every kept letter's key and value, in each block

struct KeptKeys {
    int T = 0;                            // letters kept, in seats 0 .. T-1
    long oldest = 0;                      // which letter of the text sits in seat 0
    float keys[BLOCKS][SEATS * WIDTH];    // (SEATS,W) a block's keys, one row per seat, the 4 heads' side by side
    float values[BLOCKS][SEATS * WIDTH];  // (SEATS,W) a block's values, the same way
};

// ---------------------------------------------------------------------------
// Counting: each matrix product and each attention, as read_letter calls them

static long multiply_adds = 0;  // the work done so far; read around each letter (read_and_count)

// out (N) += in (K) · M (K,N): one letter's row of multiply_forward, counted.
static void times(float* out, const float* in, const float* M, int K, int N) {
    multiply_forward(out, in, M, 1, K, N);
    multiply_adds += long(K) * N;
}

// attend_cached (tiny_model.hpp; exercise tiny.5), counted: each head, for each
// of T letters, 8 multiply-adds for the score and 8 for the value.
static void attend(float* found, const float* query, const float* keys, const float* values, int T) {
    attend_cached(found, query, keys, values, T);
    multiply_adds += 2 * WIDTH * T;
}

// ---------------------------------------------------------------------------
// One letter through the model, as block_forward takes one row of it

// The letter `id` in seat cache.T: through both blocks, making its query, key
// and value once and keeping the key and value; then the logits (V) of the
// letter after it.
static void read_letter(const TinyModel& model, KeptKeys& cache, int id, float* logits) {
    const Knobs k = knobs(model);
    const int t = cache.T;  // this letter's seat
    float notebook[WIDTH];  // (W) this letter's notebook: token table[id] + position table[t]
    embed_forward(notebook, &id, k.token, k.position + t * WIDTH, 1);
    for (int b = 0; b < BLOCKS; b++) {
        const BlockKnobs& knob = k.block[b];
        float first[WIDTH], second[WIDTH], mean, rstd;  // (W) each; level's mean and rstd are not needed after
        level_forward(first, &mean, &rstd, notebook, knob.level1_gain, knob.level1_bias, 1);
        float lookups[3 * WIDTH] = {};  // (3W) this letter's query, key and value side by side
        times(lookups, first, knob.lookup, WIDTH, 3 * WIDTH);
        // The cache: keep this letter's key and value in its seat, for every later letter to read
        std::copy(lookups + WIDTH, lookups + 2 * WIDTH, cache.keys[b] + t * WIDTH);
        std::copy(lookups + 2 * WIDTH, lookups + 3 * WIDTH, cache.values[b] + t * WIDTH);
        float found[WIDTH];  // (W) what the 4 heads read: attend_forward's row t, from the kept keys and values
        attend(found, lookups, cache.keys[b], cache.values[b], t + 1);
        float middle[WIDTH];  // (W) middle = notebook + found · write
        std::copy(notebook, notebook + WIDTH, middle);
        times(middle, found, knob.write, WIDTH, WIDTH);
        level_forward(second, &mean, &rstd, middle, knob.level2_gain, knob.level2_bias, 1);
        float hidden[HIDDEN] = {}, fired[HIDDEN], share[HIDDEN];  // (F) each
        times(hidden, second, knob.network_hidden, WIDTH, HIDDEN);
        gelu_forward(fired, share, hidden, HIDDEN);
        std::copy(middle, middle + WIDTH, notebook);  // middle + fired · network_write: the next block's notebook
        times(notebook, fired, knob.network_write, HIDDEN, WIDTH);
    }
    cache.T = t + 1;
    float last[WIDTH], mean, rstd;
    level_forward(last, &mean, &rstd, notebook, k.final_gain, k.final_bias, 1);
    std::fill(logits, logits + model.V, 0.0f);
    times(logits, last, k.output, WIDTH, model.V);
}

// read_letter, and the multiply-adds it did (levels, GELU and softmax, a few per
// number, left out, as tests/bench/bench_tiny.sh counts).
static long read_and_count(const TinyModel& model, KeptKeys& cache, int id, float* logits) {
    const long before = multiply_adds;
    read_letter(model, cache, id, logits);
    return multiply_adds - before;
}

// ---------------------------------------------------------------------------
// Writing, letter by letter, and the tally of the work

// What each letter cost: the first reads the prompt in; then, while the window
// fills, each reads the kept keys; once it is full, each makes them again.
enum Kind { PROMPT, KEPT, SLID, KINDS };

struct Tally {
    long seat_cost[SEATS] = {};  // what reading a letter cost in each seat (it depends on the seat alone)
    long letters[KINDS] = {}, first_letter[KINDS] = {};
    long with_cache[KINDS] = {}, without[KINDS] = {};  // multiply-adds, added up over those letters
    int prompt_read = 0;                               // letters the first letter's window held
};

// Writes `length` letters after the prompt, each drawn from the logits as
// tiny_generate draws it, from the same window: the last 64 letters at most.
static Tally generate(const TinyModel& model, const std::string& prompt, long length, float temperature, Rng& rng) {
    std::vector<int> ids = encode(model, prompt);
    std::vector<float> logits(model.V);
    KeptKeys cache;
    Tally tally;
    std::fputs(prompt.c_str(), stdout);
    for (long n = 0; n < length; n++) {
        const int T = std::min(int(ids.size()), SEATS);  // the window: the last T letters, in seats 0 .. T-1
        const long oldest = long(ids.size()) - T;
        const int* window = ids.data() + oldest;
        long cost = 0;
        Kind kind = KEPT;
        // Once the window is full, each new letter pushes out the oldest and moves
        // the other 63 back one seat. A letter's seat is added into its notebook
        // at the start, so every key and value of theirs changes: what was kept is
        // stale, and is made again from the window, letter by letter. (A writer of
        // long texts can slide the window half its length at a time instead, or
        // use positions a slide leaves alone; either changes the letters, and
        // ours must be tiny_generate's.)
        if (cache.oldest != oldest || cache.T != T - 1) {
            kind = n == 0 ? PROMPT : SLID;
            cache.T = 0;
            cache.oldest = oldest;
            for (int s = 0; s < T - 1; s++) {
                tally.seat_cost[s] = read_and_count(model, cache, window[s], logits.data());
                cost += tally.seat_cost[s];
            }
        }
        tally.seat_cost[T - 1] = read_and_count(model, cache, window[T - 1], logits.data());  // the newest letter
        cost += tally.seat_cost[T - 1];
        ids.push_back(sample_next(logits.data(), model.V, temperature, rng));
        std::fputc(model.vocabulary[ids.back()], stdout);

        // Without the cache, this letter would have re-read its whole window: each seat's cost once.
        long re_reading = 0;
        for (int s = 0; s < T; s++) re_reading += tally.seat_cost[s];
        if (tally.letters[kind]++ == 0) tally.first_letter[kind] = n + 1;
        tally.with_cache[kind] += cost;
        tally.without[kind] += re_reading;
        if (kind == PROMPT) tally.prompt_read = T;
    }
    std::fputc('\n', stdout);
    return tally;
}

// One row of the table: the letters of one kind, the multiply-adds per letter both ways.
static void print_row(const char* what, long first, long letters, long with_cache, long without) {
    const std::string which =
        letters == 1 ? formatted("letter %ld", first) : formatted("letters %ld to %ld", first, first + letters - 1);
    std::printf("  %-19s %-24s %14.0f %18.0f\n", which.c_str(), what, double(with_cache) / letters,
                double(without) / letters);
}

static void report(const Tally& tally, long length) {
    std::printf("\nMultiply-adds per letter, counted as the loops ran (levels, GELU and softmax left out):\n");
    std::printf("  %-19s %-24s %14s %18s\n", "", "", "with the cache", "without: re-read");
    const std::string prompt_row = formatted("reads the prompt (%d)", tally.prompt_read);
    const char* what[KINDS] = {prompt_row.c_str(), "keys kept", "window full: made again"};
    long with_cache = 0, without = 0;
    for (int kind = PROMPT; kind < KINDS; kind++) {
        if (tally.letters[kind] == 0) continue;
        print_row(what[kind], tally.first_letter[kind], tally.letters[kind], tally.with_cache[kind],
                  tally.without[kind]);
        with_cache += tally.with_cache[kind];
        without += tally.without[kind];
    }
    if (length == 0) {
        std::printf("  (no letters written)\n");
        return;
    }
    print_row("all", 1, length, with_cache, without);
    std::printf("In all: %ld multiply-adds with the cache, %ld without: %.2f times as many.\n", with_cache, without,
                double(without) / double(with_cache));
    if (tally.letters[KEPT] > 0)
        std::printf(
            "While the window filled, each letter made its own query, key and value once and read the\n"
            "kept ones: re-reading the window took %.1f times as many multiply-adds.\n",
            double(tally.without[KEPT]) / double(tally.with_cache[KEPT]));
    if (tally.letters[SLID] > 0)
        std::printf(
            "From letter %ld the window was full (%d seats). Each new letter pushed out the oldest and\n"
            "moved the other %d back one seat, and a letter's seat is part of its first notebook, so\n"
            "every kept key and value was stale: the cache was made again from those %d letters, %ld\n"
            "times, for what re-reading costs. With seats learned as this model's are, keeping keys\n"
            "saves work only while the window fills.\n",
            tally.first_letter[SLID], SEATS, SEATS - 1, SEATS - 1, tally.letters[SLID]);
    else std::printf("The window never filled (%d seats), so no kept key went stale.\n", SEATS);
}

// ---------------------------------------------------------------------------

static const char* USAGE =
    "usage: tiny_5_Kept_Keys [options]\n"
    "Writes text with the tiny Shakespeare model as tiny_generate does, the same letters\n"
    "at the same seed, but keeping each letter's keys and values (a key/value cache)\n"
    "instead of re-reading the window for every letter; then the multiply-adds per\n"
    "letter with the cache and without.\n"
    "\n" WRITING_OPTIONS_USAGE;

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const std::string path = model_option(options);
    const Writing writing = writing_options(options);
    options.done();
    require_prompt(writing);

    const TinyModel model = load_model(path);
    Rng rng{writing.seed};
    const Tally tally = generate(model, writing.prompt, writing.length, writing.temperature, rng);
    report(tally, writing.length);
    return 0;
}
