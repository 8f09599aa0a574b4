// tests/unit/tiny_model_test.cpp: the tiny model's hand-written gradients (the plain
// backward of chapter_tiny/tiny_model.hpp, as the chapter's reader reads it)
// against finite differences, for every knob tensor, and its checkpoint file: a
// bit-exact round trip, and the loader rejecting broken files with the right
// reason. (tests/unit/tiny_fast_test.cpp: the fast passes give the same bits.)
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../../chapter_tiny/tiny_checkpoint.hpp"
#include "../../chapter_tiny/tiny_model.hpp"
#include "check.hpp"

struct Tensor {
    std::string name;
    size_t offset, size;  // where it sits in the flat block of knobs
};

// Every knob tensor by name, in the checkpoint's order, from the model's own views.
static std::vector<Tensor> tensors(TinyModel& model) {
    Knobs k = knobs(model);
    float* base = model.knobs.data();
    std::vector<Tensor> list;
    auto add = [&](const std::string& name, float* p, size_t n) { list.push_back({name, size_t(p - base), n}); };
    add("token", k.token, size_t(model.V) * WIDTH);
    add("position", k.position, SEATS * WIDTH);
    for (int b = 0; b < BLOCKS; b++) {
        std::string at = "block" + std::to_string(b + 1) + ".";
        add(at + "level1_gain", k.block[b].level1_gain, WIDTH);
        add(at + "level1_bias", k.block[b].level1_bias, WIDTH);
        add(at + "lookup", k.block[b].lookup, WIDTH * 3 * WIDTH);
        add(at + "write", k.block[b].write, WIDTH * WIDTH);
        add(at + "level2_gain", k.block[b].level2_gain, WIDTH);
        add(at + "level2_bias", k.block[b].level2_bias, WIDTH);
        add(at + "network_hidden", k.block[b].network_hidden, WIDTH * HIDDEN);
        add(at + "network_write", k.block[b].network_write, HIDDEN * WIDTH);
    }
    add("final_gain", k.final_gain, WIDTH);
    add("final_bias", k.final_bias, WIDTH);
    add("output", k.output, WIDTH * size_t(model.V));
    return list;
}

// The mean cross-entropy of the test sequence; the quantity whose gradient we check.
static float mean_loss(const TinyModel& model, const std::vector<int>& ids, const std::vector<int>& targets,
                       Tape& tape) {
    forward(model, ids.data(), int(ids.size()), tape);
    return loss_sum(tape, targets.data()) / float(ids.size());
}

static void gradient_check() {
    // A small random model with knobs large enough that every nonlinearity bends.
    Rng rng(7);
    TinyModel model = new_model("abcdefg", rng);
    for (float& x : model.knobs) x += 0.3f * rng.normal();
    const int T = 12;  // a short sequence, so the check is fast even at -O0
    std::vector<int> ids(T), targets(T);
    for (int t = 0; t < T; t++) {
        ids[t] = rng.below(model.V);
        targets[t] = rng.below(model.V);
    }
    Tape tape(model.V);
    Scratch scratch(model.V);
    std::vector<float> grads(model.knobs.size(), 0.0f);
    mean_loss(model, ids, targets, tape);
    backward(model, tape, ids.data(), targets.data(), 1.0f / T, grads.data(), scratch);

    const float h = 1e-2f;  // large enough that float rounding of the loss stays small beside the difference
    auto difference = [&](const std::vector<float>& direction, size_t offset) {
        std::vector<float> saved = model.knobs;
        for (size_t i = 0; i < direction.size(); i++) model.knobs[offset + i] = saved[offset + i] + h * direction[i];
        double up = mean_loss(model, ids, targets, tape);
        for (size_t i = 0; i < direction.size(); i++) model.knobs[offset + i] = saved[offset + i] - h * direction[i];
        double down = mean_loss(model, ids, targets, tape);
        model.knobs = saved;
        return (up - down) / (2.0 * h);
    };

    double worst = 0.0;
    for (const Tensor& tensor : tensors(model)) {
        // 1. The whole tensor at once: the derivative along a random direction
        //    equals the gradient dotted with that (unit) direction.
        std::vector<float> direction(tensor.size);
        double length = 0.0;
        for (float& x : direction) {
            x = rng.normal();
            length += double(x) * x;
        }
        double predicted = 0.0, size = 0.0;
        for (size_t i = 0; i < tensor.size; i++) {
            direction[i] /= float(std::sqrt(length));  // a unit step, however big the tensor
            predicted += double(grads[tensor.offset + i]) * direction[i];
            size += std::fabs(double(grads[tensor.offset + i]) * direction[i]);
        }
        double measured = difference(direction, tensor.offset);
        std::string what = tensor.name + ": gradient along a random direction";
        check_near(measured, predicted, 1e-3 * size + 2e-5, what.c_str());
        worst = std::max(worst, std::fabs(measured - predicted) / (size + 1e-12));

        // 2. Single knobs: the four with the biggest gradient and four at random.
        std::vector<size_t> picks(tensor.size);
        for (size_t i = 0; i < tensor.size; i++) picks[i] = i;
        std::partial_sort(picks.begin(), picks.begin() + 4, picks.end(), [&](size_t a, size_t b) {
            return std::fabs(grads[tensor.offset + a]) > std::fabs(grads[tensor.offset + b]);
        });
        picks.resize(4);
        for (int r = 0; r < 4; r++) picks.push_back(size_t(rng.below(int(tensor.size))));
        for (size_t i : picks) {
            std::vector<float> one(i + 1, 0.0f);
            one[i] = 1.0f;
            double want = difference(one, tensor.offset);
            double got = grads[tensor.offset + i];
            std::string each = tensor.name + "[" + std::to_string(i) + "]";
            check_near(got, want, 2e-2 * std::fabs(want) + 5e-5, each.c_str());
        }
    }
    std::printf("gradient check: worst directional error %.2e of the summed |g_i d_i|\n", worst);
}

static void checkpoint_round_trip() {
    Rng rng(3);
    TinyModel model = new_model("\n !XYZabc", rng);
    std::string bytes = model_bytes(model);
    check(bytes.size() == CHECKPOINT_HEADER + 9 + 4 * knob_count(9), "checkpoint has the documented length");
    check(bytes.compare(0, 4, "TINY") == 0 && get_u32(bytes, 4) == 1 && get_u32(bytes, 8) == 9 &&
              get_u32(bytes, 12) == WIDTH && get_u32(bytes, 28) == HIDDEN,
          "checkpoint header: TINY, version 1, V, W, ..., F");
    TinyModel back;
    check(parse_model(bytes, back).empty(), "a saved checkpoint loads");
    check(back.vocabulary == model.vocabulary && back.knobs.size() == model.knobs.size() &&
              std::memcmp(back.knobs.data(), model.knobs.data(), 4 * model.knobs.size()) == 0,
          "round trip is bit-exact");
    check(model_bytes(back) == bytes, "saving the loaded model gives the same bytes");
    // The first knob (token table [0][0]) is stored little-endian right after the vocabulary.
    uint32_t bits;
    std::memcpy(&bits, &model.knobs[0], 4);
    check(get_u32(bytes, CHECKPOINT_HEADER + 9) == bits, "knobs follow the vocabulary, little-endian");

    auto rejects = [&](const std::string& broken, const std::string& reason, const char* what) {
        TinyModel m;
        std::string problem = parse_model(broken, m);
        bool ok = problem.find(reason) != std::string::npos;
        if (!ok) std::printf("  %s: got '%s'\n", what, problem.c_str());
        check(ok, what);
    };
    rejects(bytes.substr(0, bytes.size() - 1), "is truncated", "a file one byte short is truncated");
    rejects(bytes.substr(0, 20), "is truncated", "a file cut inside the header is truncated");
    rejects("", "does not start with the 4 bytes TINY", "an empty file is rejected");
    std::string magic = bytes;
    magic[0] = 'G';
    rejects(magic, "does not start with the 4 bytes TINY", "wrong magic");
    rejects(bytes + "x", "1 bytes too many", "a file one byte long is rejected");
    std::string sizes = bytes;
    sizes[8] = 10;  // V = 10, but the file holds 9 characters and their knobs
    rejects(sizes, "is truncated", "a V that disagrees with the length");
    std::string width = bytes;
    width[12] = 16;
    rejects(width, "width is 16", "a width other than 32");
    std::string version = bytes;
    version[4] = 2;
    rejects(version, "version 2", "an unknown version");
    std::string unsorted = bytes;
    std::swap(unsorted[CHECKPOINT_HEADER + 1], unsorted[CHECKPOINT_HEADER + 2]);
    rejects(unsorted, "not sorted", "a vocabulary out of order");
    std::string nan = bytes;
    nan[CHECKPOINT_HEADER + 9 + 3] = char(0x7F), nan[CHECKPOINT_HEADER + 9 + 2] = char(0xC0);
    rejects(nan, "not a finite number", "a knob that is NaN");
}

// The attention weights: nothing above the diagonal, each row sums to 1.
static void attention_rows() {
    Rng rng(5);
    TinyModel model = new_model("abcdefg", rng);
    for (float& x : model.knobs) x += 0.5f * rng.normal();
    std::vector<int> ids(SEATS);
    for (int& id : ids) id = rng.below(model.V);
    Tape tape(model.V);
    forward(model, ids.data(), SEATS, tape);
    bool causal = true, sums = true;
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            for (int t = 0; t < SEATS; t++) {
                double total = 0.0;
                for (int s = 0; s < SEATS; s++) {
                    if (s > t && attention_weight(tape, b, h, t, s) != 0.0f) causal = false;
                    total += attention_weight(tape, b, h, t, s);
                }
                if (std::fabs(total - 1.0) > 1e-5) sums = false;
            }
    check(causal, "no letter reads a later one");
    check(sums, "every row of attention weights sums to 1");
    // The first letters' results do not depend on what comes after them.
    std::vector<float> probs(tape.probs, tape.probs + 10 * model.V);
    forward(model, ids.data(), 10, tape);
    check(std::memcmp(probs.data(), tape.probs, 4 * probs.size()) == 0, "a shorter sequence gives the same first rows");
}

int main() {
    gradient_check();
    checkpoint_round_trip();
    attention_rows();
    return check_summary("tiny_model_test");
}
