// tests/tiny_fast_test.cpp: chapter_tiny/tiny_model_fast.hpp gives the bits of
// chapter_tiny/tiny_model.hpp, the chapter's plain loops: each fast layer
// against its plain one, at sizes that leave every kind of remainder (rows not
// a multiple of 4 or 8, columns not a multiple of 8 or 16); then the whole
// passes on random models: forward_fast fills the same tape as forward,
// backward_fast adds the same gradients as backward, forward_last_fast gives
// forward's last row. Compared with memcmp: not one bit may move.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../chapter_tiny/tiny_model_fast.hpp"
#include "check.hpp"

static bool same_bits(const float* a, const float* b, size_t n) { return std::memcmp(a, b, 4 * n) == 0; }
static bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && same_bits(a.data(), b.data(), a.size());
}

static Rng rng(11);

static std::vector<float> randoms(size_t n, float spread) {
    std::vector<float> x(n);
    for (float& v : x) v = spread * rng.normal();
    return x;
}

// The sequence lengths every whole-pass test reads.
static const int LENGTHS[] = {1, 2, 7, 8, 9, 13, 33, 64};

static void multiply_layers() {
    const int shapes[][3] = {{64, 32, 96}, {64, 128, 32}, {5, 7, 21},  {13, 32, 65},
                             {1, 3, 8},    {6, 65, 17},   {33, 32, 32}};
    bool forward_same = true, fresh_same = true, backward_same = true, backward_fresh_same = true;
    for (const auto& shape : shapes) {
        const int T = shape[0], K = shape[1], N = shape[2];
        const std::vector<float> in = randoms(size_t(T) * K, 1.0f), M = randoms(size_t(K) * N, 1.0f);
        const std::vector<float> dout = randoms(size_t(T) * N, 1.0f);
        std::vector<float> MT(M.size());
        transpose_into(MT.data(), M.data(), K, N);

        std::vector<float> out = randoms(size_t(T) * N, 1.0f), want = out;  // out += in · M
        multiply_forward_fast(out.data(), in.data(), M.data(), T, K, N);
        multiply_forward(want.data(), in.data(), M.data(), T, K, N);
        forward_same = forward_same && same_bits(out, want);

        std::vector<float> fresh = randoms(size_t(T) * N, 1.0f), want_fresh(size_t(T) * N, 0.0f);  // out = in · M
        multiply_forward_fast<true>(fresh.data(), in.data(), M.data(), T, K, N);
        multiply_forward(want_fresh.data(), in.data(), M.data(), T, K, N);
        fresh_same = fresh_same && same_bits(fresh, want_fresh);

        std::vector<float> din = randoms(size_t(T) * K, 1.0f), dM = randoms(size_t(K) * N, 1.0f);
        std::vector<float> want_din = din, want_dM = dM;
        multiply_backward_fast(din.data(), dM.data(), dout.data(), in.data(), MT.data(), T, K, N);
        multiply_backward(want_din.data(), want_dM.data(), dout.data(), in.data(), M.data(), T, K, N);
        backward_same = backward_same && same_bits(din, want_din) && same_bits(dM, want_dM);

        std::vector<float> din_fresh = randoms(size_t(T) * K, 1.0f), want_din_fresh(size_t(T) * K, 0.0f);
        dM = want_dM = randoms(size_t(K) * N, 1.0f);
        multiply_backward_fast<true>(din_fresh.data(), dM.data(), dout.data(), in.data(), MT.data(), T, K, N);
        multiply_backward(want_din_fresh.data(), want_dM.data(), dout.data(), in.data(), M.data(), T, K, N);
        backward_fresh_same = backward_fresh_same && same_bits(din_fresh, want_din_fresh) && same_bits(dM, want_dM);
    }
    check(forward_same, "multiply_forward_fast gives multiply_forward's bits");
    check(fresh_same, "multiply_forward_fast<true> gives multiply_forward's bits from zero");
    check(backward_same, "multiply_backward_fast gives multiply_backward's din and dM");
    check(backward_fresh_same, "multiply_backward_fast<true> gives multiply_backward's din from zero, and its dM");
}

static void level_layers() {
    bool forward_same = true, backward_same = true;
    for (int T : {1, 3, 8, 13, 33, 64}) {
        const std::vector<float> in = randoms(size_t(T) * WIDTH, 3.0f), gain = randoms(WIDTH, 1.0f),
                                 bias = randoms(WIDTH, 1.0f);
        std::vector<float> out(size_t(T) * WIDTH), mean(T), rstd(T), out_fast = out, mean_fast = mean, rstd_fast = rstd;
        level_forward(out.data(), mean.data(), rstd.data(), in.data(), gain.data(), bias.data(), T);
        level_forward_fast(out_fast.data(), mean_fast.data(), rstd_fast.data(), in.data(), gain.data(), bias.data(), T);
        forward_same =
            forward_same && same_bits(out, out_fast) && same_bits(mean, mean_fast) && same_bits(rstd, rstd_fast);
        const std::vector<float> dout = randoms(size_t(T) * WIDTH, 1.0f);
        std::vector<float> din = randoms(size_t(T) * WIDTH, 1.0f), dgain = randoms(WIDTH, 1.0f),
                           dbias = randoms(WIDTH, 1.0f);
        std::vector<float> din_fast = din, dgain_fast = dgain, dbias_fast = dbias;
        level_backward(din.data(), dgain.data(), dbias.data(), dout.data(), in.data(), mean.data(), rstd.data(),
                       gain.data(), T);
        level_backward_fast(din_fast.data(), dgain_fast.data(), dbias_fast.data(), dout.data(), in.data(), mean.data(),
                            rstd.data(), gain.data(), T);
        backward_same =
            backward_same && same_bits(din, din_fast) && same_bits(dgain, dgain_fast) && same_bits(dbias, dbias_fast);
    }
    check(forward_same, "level_forward_fast gives level_forward's bits");
    check(backward_same, "level_backward_fast gives level_backward's bits");
}

static void attend_layers() {
    bool forward_same = true, backward_same = true;
    for (int T : LENGTHS) {
        const std::vector<float> lookups = randoms(size_t(T) * 3 * WIDTH, 2.0f),
                                 dfound = randoms(size_t(T) * WIDTH, 1.0f);
        // Buffers that start full of rubbish: every entry must be written.
        std::vector<float> found(size_t(T) * WIDTH, 7.0f), weights(size_t(HEADS) * T * T, 7.0f);
        std::vector<float> found_fast(found.size(), 9.0f), weights_fast(weights.size(), 9.0f);
        attend_forward(found.data(), weights.data(), lookups.data(), T);
        attend_forward_fast(found_fast.data(), weights_fast.data(), lookups.data(), T);
        forward_same = forward_same && same_bits(found, found_fast) && same_bits(weights, weights_fast);
        std::vector<float> dlookups(lookups.size(), 0.0f), dlookups_fast = dlookups;
        attend_backward(dlookups.data(), dfound.data(), weights.data(), lookups.data(), T);
        attend_backward_fast(dlookups_fast.data(), dfound.data(), weights.data(), lookups.data(), T);
        backward_same = backward_same && same_bits(dlookups, dlookups_fast);
    }
    check(forward_same, "attend_forward_fast gives attend_forward's found and weights ([head][t][s]), bit for bit");
    check(backward_same, "attend_backward_fast gives attend_backward's gradients, bit for bit");
}

static void gelu_and_softmax_layers() {
    bool forward_same = true, backward_same = true;
    for (int n : {1, 7, 8, 31, 32, 33, 100, 64 * HIDDEN}) {
        const std::vector<float> hidden = randoms(size_t(n), 3.0f), dfired = randoms(size_t(n), 1.0f);
        std::vector<float> fired(n), share(n), fired_fast(n), share_fast(n), dhidden(n), dhidden_fast(n);
        gelu_forward(fired.data(), share.data(), hidden.data(), n);
        gelu_forward_fast(fired_fast.data(), share_fast.data(), hidden.data(), n);
        forward_same = forward_same && same_bits(fired, fired_fast) && same_bits(share, share_fast);
        gelu_backward(dhidden.data(), dfired.data(), hidden.data(), share.data(), n);
        gelu_backward_fast(dhidden_fast.data(), dfired.data(), hidden.data(), share.data(), n);
        backward_same = backward_same && same_bits(dhidden, dhidden_fast);
    }
    check(forward_same, "gelu_forward_fast gives gelu_forward's bits");
    check(backward_same, "gelu_backward_fast gives gelu_backward's bits");

    bool softmax_same = true;
    for (int V : {2, 9, 65, MAX_VOCABULARY})
        for (int T : {1, 7, 8, 13, 64}) {
            const std::vector<float> logits = randoms(size_t(T) * V, 4.0f);
            std::vector<float> probs(size_t(T) * V), biggest(T), total(T), probs_fast = probs, biggest_fast = biggest,
                                                                           total_fast = total;
            softmax_forward(probs.data(), biggest.data(), total.data(), logits.data(), T, V);
            softmax_forward_fast(probs_fast.data(), biggest_fast.data(), total_fast.data(), logits.data(), T, V);
            softmax_same = softmax_same && same_bits(probs, probs_fast) && same_bits(biggest, biggest_fast) &&
                           same_bits(total, total_fast);
        }
    check(softmax_same, "softmax_forward_fast gives softmax_forward's bits");
}

// A random model whose knobs are large enough that every nonlinearity bends.
static TinyModel random_model(const std::string& vocabulary) {
    TinyModel model = new_model(vocabulary, rng);
    for (float& x : model.knobs) x += 0.5f * rng.normal();
    return model;
}

static void whole_passes() {
    const char* vocabularies[] = {"abcdefg", "abcdefghijklmnopq",
                                  "\n !',-.:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "01"};
    int cases = 0, forward_same = 0, backward_same = 0, last_same = 0;
    for (const char* vocabulary : vocabularies) {
        const TinyModel model = random_model(vocabulary);
        const std::vector<float> transposed = transposed_knobs(model);
        for (int T : LENGTHS) {
            std::vector<int> ids(T), targets(T);
            for (int t = 0; t < T; t++) ids[t] = rng.below(model.V), targets[t] = rng.below(model.V);
            Tape plain(model.V), fast(model.V);
            forward(model, ids.data(), T, plain);
            forward_fast(model, ids.data(), T, fast);
            forward_same += same_bits(plain.floats, fast.floats);

            // Gradients added into the same random block, so that adding (not overwriting) is checked too.
            const std::vector<float> start = randoms(model.knobs.size(), 0.01f);
            std::vector<float> grads = start, grads_fast = start, grads_made_here = start;
            Scratch scratch(model.V), scratch_fast(model.V);
            backward(model, plain, ids.data(), targets.data(), 1.0f / float(T), grads.data(), scratch);
            backward_fast(model, fast, ids.data(), targets.data(), 1.0f / float(T), grads_fast.data(), scratch_fast,
                          transposed.data());
            backward_fast(model, fast, ids.data(), targets.data(), 1.0f / float(T), grads_made_here.data(),
                          scratch_fast);
            backward_same += same_bits(grads, grads_fast) && same_bits(grads, grads_made_here);

            Tape last(model.V);
            forward_last_fast(model, ids.data(), T, last);
            const size_t row = size_t(T - 1) * model.V;
            last_same += same_bits(plain.logits + row, last.logits + row, model.V) &&
                         same_bits(plain.probs + row, last.probs + row, model.V) &&
                         same_bits(plain.biggest + T - 1, last.biggest + T - 1, 1) &&
                         same_bits(plain.total + T - 1, last.total + T - 1, 1);
            cases++;
        }
    }
    std::printf("whole passes: %d random models x %d lengths: forward %d, backward %d, forward_last %d the same\n",
                int(sizeof vocabularies / sizeof *vocabularies), int(sizeof LENGTHS / sizeof *LENGTHS), forward_same,
                backward_same, last_same);
    check(forward_same == cases, "forward_fast fills forward's tape, every float bit for bit");
    check(backward_same == cases, "backward_fast adds backward's gradients, bit for bit (memcmp)");
    check(last_same == cases, "forward_last_fast gives forward's logits and probabilities after the last letter");
}

int main() {
    multiply_layers();
    level_layers();
    attend_layers();
    gelu_and_softmax_layers();
    whole_passes();
    return check_summary("tiny_fast_test");
}
