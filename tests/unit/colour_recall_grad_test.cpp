// tests/unit/colour_recall_grad_test.cpp: every hand-written gradient of the
// colour-recall model (chapter15/colour_recall.hpp) against central finite
// differences of the mean training loss, block by block.
//
// The model is float, so the difference step is large enough (1e-2) that
// rounding in the loss (about 1e-7) stays far below the gradients compared,
// and the tolerance (5% of the block's gradient size) is far below what a
// wrong sign (200%) or a missing term would give. Checked at a wide random
// start and after 10 updates, when the attention row is no longer uniform.
#include <cmath>
#include <cstdio>

#include "../../chapter15/colour_recall.hpp"
#include "check.hpp"

constexpr float STEP = 1e-2f;
constexpr double TOLERANCE = 0.05;  // of the block's largest gradient entry

// Largest |analytic - numeric| over a block, relative to the block's largest |numeric|.
static double block_error(Params& p, int b, const Params& grad, const std::vector<Example>& examples, double& size) {
    Matrix& A = *p.blocks()[b];
    const Matrix& G = *grad.blocks()[b];
    double worst = 0.0;
    size = 0.0;
    std::vector<double> numeric(A.data.size());
    for (size_t i = 0; i < A.data.size(); i++) {
        const float kept = A.data[i];
        A.data[i] = kept + STEP;
        double up = mean_loss(p, examples);
        A.data[i] = kept - STEP;
        double down = mean_loss(p, examples);
        A.data[i] = kept;
        numeric[i] = (up - down) / (2.0 * STEP);
        size = std::fmax(size, std::fabs(numeric[i]));
    }
    for (size_t i = 0; i < A.data.size(); i++) worst = std::fmax(worst, std::fabs(G.data[i] - numeric[i]));
    return worst / size;
}

static void check_point(Params p, const char* where) {
    std::vector<Example> examples = training_examples();
    Params grad;
    loss_and_gradient(p, examples, grad);
    for (int b = 0; b < 6; b++) {
        double size = 0.0;
        double error = block_error(p, b, grad, examples, size);
        // The same comparison with the block's gradient negated must fail:
        // the tolerance is tight enough to see a wrong sign.
        Params flipped = grad;
        for (float& g : flipped.blocks()[b]->data) g = -g;
        double size_flipped = 0.0;
        double error_flipped = block_error(p, b, flipped, examples, size_flipped);
        std::printf("%-22s %-10s largest |gradient| %.3e  error %.2e  (sign flipped: %.2f)\n", where, BLOCK_NAMES[b],
                    size, error, error_flipped);
        char what[128];
        std::snprintf(what, sizeof what, "%s: %s gradient matches finite differences", where, BLOCK_NAMES[b]);
        check(error < TOLERANCE, what);
        std::snprintf(what, sizeof what, "%s: %s gradient is not zero", where, BLOCK_NAMES[b]);
        check(size > 1e-4, what);
        std::snprintf(what, sizeof what, "%s: a sign flip in %s would be caught", where, BLOCK_NAMES[b]);
        check(error_flipped > TOLERANCE, what);
    }
}

int main() {
    // At the default start the scores are near 0 and the W_Q and W_K gradients
    // too small (2e-4) for float differences, so check a start three times as wide.
    check_point(random_start(DEFAULT_SEED, VOCAB, 3 * INIT_SCALE), "wide start");

    Params trained = random_start(DEFAULT_SEED);
    Adam adam(0.03f);
    std::vector<Example> examples = training_examples();
    for (int u = 0; u < 10; u++) train_step(trained, adam, examples);
    check_point(trained, "after 10 updates");
    return check_summary("colour_recall_grad_test");
}
