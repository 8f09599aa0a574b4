// ex5_Training_Loop.cpp: exercise 15.5, Lab 5's training loop.
// Book section: 15.6 (exercise 15.5)
// Exercise: 15.5
// Builds on: 15.3 15.4
//
// Write one function (its signature is fixed; the grader calls it):
//
//   std::vector<float> train(Params& p, Adam& adam, const std::vector<Example>& examples, int updates);
//
// Make `updates` updates of p, each as the loop of section 15.2.3: start from a
// gradient of zeros (Params grad(p.bias.cols), PyTorch's zero_grad), add up the
// gradient of the mean cross-entropy
// over all the examples (for each: forward, then backward with loss_weight
// 1 / number of examples), and give it to adam.update (optimiser.step). The
// grader reads the Adam's running means after your loop, so the gradient it is
// given must be the mean's, not the sum's (Adam's steps alone hardly differ). Keep
// using the Adam you are given: its running means carry over from one call to
// the next. Return the mean training loss of each update, measured before its
// step (cross_entropy of each example's logits, averaged), one per update.
// colour_recall.hpp gives forward, cross_entropy, Params and Adam. backward is
// exercise 15.3's, and Adam's update runs exercise 15.4's adam_step on each
// block: in the class handout, your answers in the folders beside this one
// (check.sh builds them in); the grader grades this file alone, with its own.
//
// main then trains the model from its default start and prints the book's
// table at updates 0, 10, 30, 50 and 200, using your loop.
#include <cstdio>
#include <string>
#include <vector>

#include "../colour_recall.hpp"

std::vector<float> train(Params& p, Adam& adam, const std::vector<Example>& examples, int updates) {
    // BEGIN SOLUTION
    // STUB: (void)p, (void)adam, (void)examples;
    // STUB: return std::vector<float>(size_t(updates > 0 ? updates : 0), 0.0f);
    std::vector<float> losses;
    const float loss_weight = 1.0f / float(examples.size());
    for (int u = 0; u < updates; u++) {
        Params grad(p.bias.cols);  // zero_grad()
        float loss = 0.0f;
        for (const Example& e : examples) {
            Forward f = forward(p, e.tokens);
            loss += cross_entropy(f.logits, e.target) * loss_weight;
            backward(p, e.tokens, f, e.target, loss_weight, grad);  // loss.backward()
        }
        adam.update(p, grad);  // optimiser.step()
        losses.push_back(loss);
    }
    return losses;
    // END SOLUTION
}

// ---------------------------------------------------------------------------
// The lesson: the book's table, from your loop.

int main() {
    const std::vector<Example> examples = training_examples(), validation = validation_examples();
    Params p = random_start(DEFAULT_SEED, VOCAB, INIT_SCALE);
    Adam adam(0.03f);
    std::printf("Adam at lr 0.03 from the default start (seed %llu, scale %.2g), the %d training prefixes\n\n",
                (unsigned long long)DEFAULT_SEED, double(INIT_SCALE), int(examples.size()));
    std::printf("  update  weight on 5  p_red  predicted  training loss  validation loss  validation correct\n");
    int done = 0;
    for (int at : {0, 10, 30, 50, 200}) {
        train(p, adam, examples, at - done);
        done = at;
        Measurement m = measure(p, examples, validation);
        std::printf("  %6d  %11.3f  %5.3f  %-9s  %13.3f  %15.3f  %13d of 3\n", at, m.weight_on_colour, m.p_colour[0],
                    vocabulary()[m.predicted].c_str(), m.training_loss, m.validation_loss, m.validation_correct);
    }
    return 0;
}
