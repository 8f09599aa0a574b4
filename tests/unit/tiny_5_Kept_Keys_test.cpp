// tests/unit/tiny_5_Kept_Keys_test.cpp: chapter_tiny/tiny_5_Kept_Keys.cpp's reading with
// kept keys gives the bits of chapter_tiny/tiny_model.hpp's plain forward pass, which
// tiny_generate's forward_last_fast equals (tiny_fast_test): so the lesson writes
// tiny_generate's letters however long it runs. On the shipped model and on random
// ones, a text read letter by letter into the cache gives, in every seat, the logits of
// forward over the letters up to it; and attend_cached gives attend_forward's last row
// of found, for random lookups at every T, with scores in the hundreds too. Compared
// with memcmp: not one bit may move. (A sum taken in another order moves a last bit
// and only seldom a letter, so comparing letters alone would miss it.)
#include <cstring>
#include <vector>

#define main kept_keys_main  // the lesson's own main, which this test does not run
#include "../../chapter_tiny/tiny_5_Kept_Keys.cpp"
#undef main
#include "check.hpp"

static bool same_bits(const float* a, const float* b, size_t n) { return std::memcmp(a, b, 4 * n) == 0; }

// Every seat of a 64-letter text: read_letter's logits against forward's row t.
static void whole_model(const TinyModel& model, Rng& rng, const char* what) {
    std::vector<int> ids(SEATS);
    for (int& id : ids) id = rng.below(model.V);
    KeptKeys cache;
    Tape tape(model.V);
    std::vector<float> logits(model.V);
    bool same = true;
    for (int t = 0; t < SEATS; t++) {
        read_letter(model, cache, ids[t], logits.data());
        forward(model, ids.data(), t + 1, tape);
        same = same && same_bits(logits.data(), tape.logits + t * model.V, size_t(model.V));
    }
    check(same && cache.T == SEATS, what);
}

// attend_cached against attend_forward's row T-1, at T = 1 .. 64.
static void attention(float spread, Rng& rng, const char* what) {
    std::vector<float> lookups(SEATS * 3 * WIDTH), found(SEATS * WIDTH), weights(HEADS * SEATS * SEATS);
    std::vector<float> keys(SEATS * WIDTH), values(SEATS * WIDTH), cached(WIDTH);
    bool same = true;
    for (int T = 1; T <= SEATS; T++) {
        for (float& x : lookups) x = spread * rng.normal();
        attend_forward(found.data(), weights.data(), lookups.data(), T);
        for (int s = 0; s < T; s++)
            for (int i = 0; i < WIDTH; i++) {
                keys[s * WIDTH + i] = lookups[s * 3 * WIDTH + WIDTH + i];
                values[s * WIDTH + i] = lookups[s * 3 * WIDTH + 2 * WIDTH + i];
            }
        attend_cached(cached.data(), lookups.data() + (T - 1) * 3 * WIDTH, keys.data(), values.data(), T);
        same = same && same_bits(cached.data(), found.data() + (T - 1) * WIDTH, WIDTH);
    }
    check(same, what);
}

int main() {
    Rng rng(4);
    attention(1.0f, rng, "attend_cached gives attend_forward's last row, bit for bit, T = 1 to 64");
    attention(5.0f, rng, "the same with scores in the hundreds (exp without the largest subtracted overflows)");
    whole_model(load_model(MODEL_FILE), rng, "the shipped model: read_letter's logits are forward's, in every seat");
    const std::string vocabulary = "\n !',-.:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (int i = 0; i < 3; i++) {
        const TinyModel random = new_model(vocabulary, rng);
        whole_model(random, rng, "a random model: read_letter's logits are forward's, in every seat");
    }
    return check_summary("tiny_5_Kept_Keys_test");
}
