// tests/unit/colour_recall_fast_test.cpp: chapter15/colour_recall_fast.hpp gives the bits of
// chapter15/colour_recall.hpp, the chapter's plain loops: project_fast against matmul at many
// shapes; then on random models (widths from near-uniform attention to saturated, random biases,
// vocabularies of other sizes) and random prefixes of 1 to 24 tokens, forward_fast fills the same
// Forward as forward and returns cross_entropy's loss, and backward_fast adds backward's gradients
// into a grad already holding numbers; last, whole training runs of train_step_fast against
// train_step. One Forward and one scratch row serve every case, as in training, so memory kept from
// a longer prefix is checked too. Compared with memcmp: not one bit may move.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../chapter15/colour_recall_fast.hpp"
#include "check.hpp"

static bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols && std::memcmp(a.data.data(), b.data.data(), 4 * a.data.size()) == 0;
}
static bool same_bits(const Params& a, const Params& b) {
    for (int i = 0; i < 6; i++)
        if (!same_bits(*a.blocks()[i], *b.blocks()[i])) return false;
    return true;
}
static bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

static Rng rng(15);

static float uniform(float low, float high) { return low + (high - low) * rng.uniform(); }

static Matrix randoms(int rows, int cols, float spread) { return random_normal(rows, cols, rng, spread); }

template <int COLS>
static bool project_matches(int rows, int inner) {
    const Matrix X = randoms(rows, inner, 1.0f), W = randoms(inner, COLS, 1.0f);
    Matrix Y(rows, COLS, 7.0f);  // rubbish: every entry must be written
    project_fast<COLS>(Y.row(0), X.row(0), rows, inner, W);
    return same_bits(Y, matmul(X, W));
}

static void projections() {
    int cases = 0, same = 0;
    for (int rows = 1; rows <= 24; rows++)
        for (int inner = 1; inner <= 24; inner++, cases += 2)
            same += project_matches<D_K>(rows, inner) + project_matches<D_V>(rows, inner);
    std::printf("project_fast: %d shapes, %d the same as matmul\n", cases, same);
    check(same == cases, "project_fast gives matmul's bits");
}

// A random model: a start at a random width (narrow: attention near uniform; wide: saturated),
// with a random bias, over a vocabulary of `vocab` tokens.
static Params random_model(int vocab) {
    Params p = random_start(rng.next(), vocab, uniform(0.05f, 3.0f));
    for (float& b : p.bias.data) b = uniform(-1.0f, 1.0f);
    return p;
}

static std::vector<int> random_prefix(int vocab) {
    std::vector<int> tokens(1 + rng.below(24));
    for (int& t : tokens) t = rng.below(vocab);
    if (tokens.size() > 2) tokens[1] = tokens.back();  // a token met twice, the last among them
    return tokens;
}

static void whole_passes() {
    const int MODELS = 300, PREFIXES = 10;
    int cases = 0, forward_same = 0, loss_same = 0, backward_same = 0;
    Forward fast;  // kept from case to case, as training keeps it from prefix to prefix
    std::vector<float> scratch;
    for (int m = 0; m < MODELS; m++) {
        const int vocab = m % 3 == 0 ? VOCAB : 2 + rng.below(40);
        const Params p = random_model(vocab);
        for (int k = 0; k < PREFIXES; k++, cases++) {
            const std::vector<int> tokens = random_prefix(vocab);
            const int target = rng.below(vocab);
            const Forward plain = forward(p, tokens);
            const float loss = forward_fast(p, tokens, target, fast);
            forward_same += same_bits(plain.X, fast.X) && same_bits(plain.q, fast.q) && same_bits(plain.K, fast.K) &&
                            same_bits(plain.V, fast.V) && same_bits(plain.scores, fast.scores) &&
                            same_bits(plain.weights, fast.weights) && same_bits(plain.z, fast.z) &&
                            same_bits(plain.logits, fast.logits) && same_bits(plain.probs, fast.probs);
            loss_same += same_bits(loss, cross_entropy(plain.logits, target));

            // Both add into the same grad, already full of numbers: adding (not overwriting) is checked too.
            Params grad = random_model(vocab), grad_fast = grad;
            const float loss_weight = uniform(0.1f, 2.0f);
            backward(p, tokens, plain, target, loss_weight, grad);
            backward_fast(p, tokens, fast, target, loss_weight, grad_fast, scratch);
            backward_same += same_bits(grad, grad_fast);
        }
    }
    std::printf("whole passes: %d random models x %d prefixes: forward %d, loss %d, backward %d the same\n", MODELS,
                PREFIXES, forward_same, loss_same, backward_same);
    check(forward_same == cases, "forward_fast fills forward's Forward, every matrix bit for bit");
    check(loss_same == cases, "forward_fast returns cross_entropy's loss, bit for bit");
    check(backward_same == cases, "backward_fast adds backward's gradients, bit for bit (memcmp)");
}

// Whole runs: the book's nine prefixes from the book's start and from random ones, and random
// example sets, each trained by both step functions side by side.
static void training_runs() {
    const int RUNS = 12, UPDATES = 120;
    int same_runs = 0;
    for (int run = 0; run < RUNS; run++) {
        std::vector<Example> examples = training_examples();
        Params p = run == 0 ? random_start(DEFAULT_SEED) : random_model(VOCAB);
        if (run >= RUNS / 2) {
            examples.resize(1 + rng.below(12));
            for (Example& e : examples) e.tokens = random_prefix(VOCAB), e.target = rng.below(VOCAB);
        }
        Params p_fast = p;
        const float lr = run % 2 ? 0.03f : 0.003f;
        Adam adam(lr), adam_fast(lr);
        bool same = true;
        for (int u = 0; u < UPDATES; u++)
            same = same && same_bits(train_step(p, adam, examples), train_step_fast(p_fast, adam_fast, examples));
        same_runs += same && same_bits(p, p_fast) && same_bits(adam.m, adam_fast.m) && same_bits(adam.v, adam_fast.v);
    }
    std::printf("training: %d runs of %d updates, %d ending on the same bits\n", RUNS, UPDATES, same_runs);
    check(same_runs == RUNS, "train_step_fast gives train_step's losses, parameters and Adam moments, bit for bit");
}

int main() {
    projections();
    whole_passes();
    training_runs();
    return check_summary("colour_recall_fast_test");
}
