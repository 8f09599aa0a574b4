// tests/grader/15.5.cpp: the tests of exercise 15.5 (chapter15/exercises/ex5_Training_Loop.cpp),
// the training loop `train`. colour_recall.hpp's backward and Adam are the
// reference's here (exercises 15.3 and 15.4 are graded on their own).
#include "grader.hpp"

// The functions the student writes: the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(train)
GRADER_FIELDS(Params, embeddings, W_Q, W_K, W_V, W_out, bias)
GRADER_FIELDS(Adam, lr, step, m, v)
GRADER_FIELDS(Example, text, tokens, target)
template <>
struct grader::Blank<Adam> {  // Adam has no default constructor
    static Adam make() { return Adam(0.0f); }
};
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

// The book's run: from the header's default start (whatever its seed and scale
// are now), Adam at lr 0.03; 3 of 3 on the validation prefixes within 200 updates.
static void reaches_three_of_three(Test& t) {
    Params p = random_start(DEFAULT_SEED, VOCAB, INIT_SCALE);
    Adam adam(0.03f);
    const std::vector<Example> examples = training_examples(), validation = validation_examples();
    int correct = 0, after = 0;
    for (int done = 0; done < 200 && correct < 3; done += 10) {
        std::vector<float> losses = train(p, adam, examples, 10);
        t.expect(losses.size() == 10, "train(..., 10) returned %zu losses", losses.size());
        after = done + 10;
        correct = measure(p, examples, validation).validation_correct;
    }
    t.expect(correct == 3,
             "after 200 updates from the default start the model gets %d of 3 validation prefixes "
             "right; the book's loop gets 3 of 3",
             correct);
    std::printf("reached 3 of 3 after %d updates\n", after);
}

// A random start, learning rate, number of updates and set of examples: the
// losses and the trained parameters, against the reference's loop.
static void hidden_runs(Test& t) {
    for (int round = 0; round < 2; round++) {
        Params p = random_start(uint64_t(t.size(1, 1000000)), VOCAB, t.uniform(0.1f, 0.6f));
        Adam adam(t.uniform(0.005f, 0.05f));
        std::vector<Example> all = training_examples(), examples;
        for (const Example& e : all)
            if (t.size(0, 2) > 0) examples.push_back(e);
        if (examples.empty()) examples.push_back(all[0]);
        const int first = t.size(1, 20), second = t.size(1, 20);
        std::vector<float> losses = train(p, adam, examples, first);
        t.expect(int(losses.size()) == first, "train returned %zu losses for %d updates", losses.size(), first);
        std::vector<float> more = train(p, adam, examples, second);  // the same Adam carries on
        t.expect(int(more.size()) == second, "train returned %zu losses for %d updates", more.size(), second);
        losses.insert(losses.end(), more.begin(), more.end());
        t.numbers(("losses_" + std::to_string(round)).c_str(), losses);
        for (int b = 0; b < 6; b++)
            t.numbers((std::string(BLOCK_NAMES[b]) + "_" + std::to_string(round)).c_str(), *p.blocks()[b]);
    }
    // The same run at every seed: a start so small that the gradients of W_Q and
    // W_K are far below Adam's eps, where a step no longer ignores the gradient's
    // scale, so the sum's steps differ from the mean's.
    Params p = random_start(2026, VOCAB, 0.001f);
    Adam adam(0.03f);
    t.numbers("fixed_losses", train(p, adam, training_examples(), 5));
    for (int b = 0; b < 6; b++) t.numbers((std::string("fixed_") + BLOCK_NAMES[b]).c_str(), *p.blocks()[b]);
}

// The first loss is the mean loss of the start, measured before any step.
static void loss_before_the_step(Test& t) {
    Params p = random_start(uint64_t(t.size(1, 1000000)), VOCAB, 0.3f);
    const std::vector<Example> examples = training_examples();
    const float start = mean_loss(p, examples);
    Adam adam(0.03f);
    std::vector<float> losses = train(p, adam, examples, 3);
    t.expect(losses.size() == 3, "train returned %zu losses for 3 updates", losses.size());
    t.expect(std::fabs(losses[0] - start) < 1e-4f * (1.0f + start),
             "the first loss is %g, but the mean loss of "
             "the starting parameters is %g",
             double(losses[0]), double(start));
    t.expect(adam.step == 3, "after 3 updates the Adam has made %d steps", adam.step);
}

// The gradient Adam is given is the mean's, not the sum's. Adam's step hardly
// tells them apart (m / sqrt(v) does not change when the gradient is scaled), but
// its running means do: m is N times larger, v N * N times, for the summed
// gradient of N examples. 2 to 9 examples, 1 to 5 updates: Adam's m and v as the
// call left them, against the reference's.
static void mean_gradient(Test& t) {
    Params p = random_start(uint64_t(t.size(1, 1000000)), VOCAB, t.uniform(0.1f, 0.6f));
    Adam adam(t.uniform(0.005f, 0.05f));
    std::vector<Example> all = training_examples(), examples;
    for (const Example& e : all)
        if (t.size(0, 2) > 0) examples.push_back(e);
    for (size_t i = 0; examples.size() < 2; i++) examples.push_back(all[i]);
    const int updates = t.size(1, 5);
    std::vector<float> losses = train(p, adam, examples, updates);
    t.expect(int(losses.size()) == updates, "train returned %zu losses for %d updates", losses.size(), updates);
    t.expect(adam.step == updates, "after %d updates the Adam has made %d steps", updates, adam.step);
    for (int b = 0; b < 6; b++) {
        t.numbers((std::string("m_") + BLOCK_NAMES[b]).c_str(), *adam.m.blocks()[b]);
        t.numbers((std::string("v_") + BLOCK_NAMES[b]).c_str(), *adam.v.blocks()[b]);
    }
    // The same run at every seed: every training example (the mean against the
    // sum differs most), 3 updates from a fixed start.
    Params fixed = random_start(2026, VOCAB, 0.3f);
    Adam fixed_adam(0.03f);
    std::vector<float> fixed_losses = train(fixed, fixed_adam, training_examples(), 3);
    t.numbers("fixed_losses", fixed_losses);
    for (int b = 0; b < 6; b++) {
        t.numbers((std::string("fixed_m_") + BLOCK_NAMES[b]).c_str(), *fixed_adam.m.blocks()[b]);
        t.numbers((std::string("fixed_v_") + BLOCK_NAMES[b]).c_str(), *fixed_adam.v.blocks()[b]);
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property(
                "reaches_three_of_three", 3, reaches_three_of_three,
                "each update: a fresh zero gradient, every example's forward and backward with loss_weight "
                "1/N, then one adam.update"),
            grader::compare("hidden_runs", 3, 1e-3, hidden_runs,
                            "keep the Adam you are given (do not make a new one), zero the gradient every update, "
                            "and return the mean loss measured before each step"),
            grader::compare("mean_gradient", 2, 1e-3, mean_gradient,
                            "the gradient given to adam.update is the mean over the examples: backward with "
                            "loss_weight 1 / N for each, into one zeroed gradient"),
            grader::property("loss_before_the_step", 1, loss_before_the_step,
                             "return one loss per update: the mean cross-entropy over the examples, before the step"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
