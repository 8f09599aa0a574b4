// tests/grader/tiny.4.cpp: the tests of exercise tiny.4 (chapter_tiny/exercises/ex4_Temperature.cpp),
// next_letter_probabilities and sample_next.
//
// The distribution test draws N = 20000 letters from random logits at a random
// temperature and compares the counts with N times softmax(logits / T) by
// Pearson's chi-square, letters expected fewer than 5 times pooled into one
// bin. It fails above the chi-square distribution's 1 - 1e-6 quantile for the
// bins' degrees of freedom (Wilson-Hilferty's approximation, z = 4.753): a
// right sampler fails about once in a million runs per case, while the
// temperature applied the wrong way, or no softmax, gives a chi-square in the
// thousands.
#include "grader.hpp"

// The adapters give the pointers their buffers in the student's process; the
// draws come many to a call, rng travelling both ways.
static std::vector<float> probabilities(const std::vector<float>& logits, float temperature) {
    return next_letter_probabilities(logits.data(), int(logits.size()), temperature);
}
static std::vector<int> draws(const std::vector<float>& logits, float temperature, Rng& rng, int n) {
    std::vector<int> letters;
    for (int k = 0; k < n; k++) letters.push_back(sample_next(logits.data(), int(logits.size()), temperature, rng));
    return letters;
}

// The functions the student writes (through their adapters): the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(probabilities) X(draws)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr int TEST_DRAWS = 20000;
constexpr double Z = 4.753;  // the standard normal's 1 - 1e-6 quantile

static std::vector<float> random_logits(Test& t, int V) {
    std::vector<float> logits = t.vector(V, -3.0f, 3.0f);
    return logits;
}

// Six random cases, then two at a low temperature whose logits / T reach the
// hundreds: exp of them without the largest subtracted overflows a float.
static void hidden_probs(Test& t) {
    for (int round = 0; round < 8; round++) {
        const int V = t.size(2, 70);
        const float temperature = round < 6 ? t.uniform(0.2f, 3.0f) : t.uniform(0.04f, 0.06f);
        std::vector<float> logits = round < 6 ? random_logits(t, V) : t.vector(V, -12.0f, 12.0f);
        if (round >= 6) logits[size_t(t.size(0, V - 1))] = t.uniform(6.0f, 12.0f);  // / T past 100, whatever was drawn
        std::vector<float> p = probabilities(logits, temperature);
        t.expect(int(p.size()) == V, "next_letter_probabilities gave %zu probabilities for %d letters", p.size(), V);
        t.numbers(("probs_" + std::to_string(round)).c_str(), p);
    }
    // The same worst cases at every seed: every logit below -104 (exp gives 0
    // unless the largest is subtracted; a largest started at 0 is not), and two
    // logits tied for the largest past exp's 88.
    t.numbers("probs_all_below_minus_100", probabilities({-150.0f, -120.0f, -200.0f, -121.0f}, 1.0f));
    t.numbers("probs_tied_past_88", probabilities({9.5f, 4.0f, 9.5f, -3.0f}, 0.1f));
}

// Lower temperatures put more on the likeliest letter, higher ones less; at 1 it is the plain softmax.
static void temperature_direction(Test& t) {
    const int V = t.size(3, 30);
    std::vector<float> logits = random_logits(t, V);
    int top = 0;
    for (int v = 1; v < V; v++)
        if (logits[v] > logits[top]) top = v;
    float previous = 2.0f;
    for (float temperature : {0.25f, 0.5f, 1.0f, 2.0f, 4.0f}) {
        std::vector<float> p = probabilities(logits, temperature);
        t.expect(int(p.size()) == V, "%zu probabilities for %d letters", p.size(), V);
        double sum = 0.0;
        for (float x : p) sum += x;
        t.expect(std::fabs(sum - 1.0) < 1e-5, "at temperature %g the probabilities add up to %.6f", double(temperature),
                 sum);
        t.expect(p[top] < previous,
                 "the likeliest letter's probability is %g at temperature %g, not below its %g at "
                 "the temperature before: higher temperatures should flatten the distribution",
                 double(p[top]), double(temperature), double(previous));
        previous = p[top];
    }
}

// Pearson's chi-square of the counts against N p; pools the bins expected below 5.
static void distribution(Test& t) {
    for (int round = 0; round < 3; round++) {
        const int V = t.size(2, 40);
        const float temperature = t.uniform(0.3f, 2.5f);
        std::vector<float> logits = random_logits(t, V);
        std::vector<double> p(size_t(V), 0.0);
        double top = -1e300, total = 0.0;
        for (int v = 0; v < V; v++) top = std::fmax(top, logits[v] / double(temperature));
        for (int v = 0; v < V; v++) total += (p[v] = exp_d(logits[v] / double(temperature) - top));
        for (double& x : p) x /= total;
        Rng rng(uint64_t(t.size(1, 1000000)));
        std::vector<int> counts(size_t(V), 0), letters = draws(logits, temperature, rng, TEST_DRAWS);
        t.expect(int(letters.size()) == TEST_DRAWS, "%zu draws came back, not %d", letters.size(), TEST_DRAWS);
        for (int v : letters) {
            t.expect(v >= 0 && v < V, "sample_next returned %d, not a letter from 0 to %d", v, V - 1);
            counts[v]++;
        }
        double chi2 = 0.0, pooled_expected = 0.0, pooled_count = 0.0;
        int bins = 0;
        for (int v = 0; v < V; v++) {
            const double expected = TEST_DRAWS * p[v];
            if (expected < 5.0) {
                pooled_expected += expected, pooled_count += counts[v];
                continue;
            }
            chi2 += (counts[v] - expected) * (counts[v] - expected) / expected;
            bins++;
        }
        if (pooled_expected > 0.0) {
            chi2 +=
                (pooled_count - pooled_expected) * (pooled_count - pooled_expected) / std::fmax(pooled_expected, 1.0);
            bins++;
        }
        const double k = std::fmax(1, bins - 1);  // degrees of freedom
        const double root = 1.0 - 2.0 / (9.0 * k) + Z * std::sqrt(2.0 / (9.0 * k));
        const double limit = k * root * root * root;
        t.expect(chi2 <= limit,
                 "%d draws from %d letters at temperature %.3f: chi-square %.1f against softmax(logits "
                 "/ T), above the limit %.1f for %g degrees of freedom",
                 TEST_DRAWS, V, double(temperature), chi2, limit, k);
    }
}

// Random logits, then ties: the largest logit at two places (the first wins), and
// every logit equal (letter 0).
static void temperature_zero(Test& t) {
    for (int round = 0; round < 16; round++) {
        const int V = t.size(2, 70);
        std::vector<float> logits = random_logits(t, V);
        if (round >= 8 && round < 14) {
            const int a = t.size(0, V - 2), b = t.size(a + 1, V - 1);
            logits[size_t(a)] = logits[size_t(b)] = 3.5f;  // above every other logit (those are below 3)
        } else if (round >= 14) {
            for (float& x : logits) x = logits[0];
        }
        int top = 0;
        for (int v = 1; v < V; v++)
            if (logits[v] > logits[top]) top = v;
        Rng rng(1);
        const std::vector<int> v1 = draws(logits, 0.0f, rng, 1);
        t.expect(v1.size() == 1, "no draw came back");
        const int v = v1[0];
        t.expect(v == top,
                 "at temperature 0 sample_next returned %d; the largest logit is letter %d's (the first "
                 "of the largest, on a tie)",
                 v, top);
    }
    // The same worst case at every seed: every logit below 0, the largest tied (letter 1).
    Rng rng(1);
    const std::vector<int> v1 = draws({-200.0f, -150.0f, -170.0f, -150.0f}, 0.0f, rng, 1);
    t.expect(v1.size() == 1 && v1[0] == 1,
             "at temperature 0, of the logits -200, -150, -170, -150 sample_next "
             "returned letter %d; the first of the largest is letter 1",
             v1.empty() ? -1 : v1[0]);
}

// The same seed gives the same letters; the letters come from rng.
static void seeded(Test& t) {
    const int V = t.size(5, 40);
    std::vector<float> logits = random_logits(t, V);
    const uint64_t seed = uint64_t(t.size(1, 1000000));
    Rng a(seed), b(seed), c(seed + 1);
    const std::vector<int> first = draws(logits, 1.0f, a, 200), again = draws(logits, 1.0f, b, 200),
                           other = draws(logits, 1.0f, c, 200);
    t.expect(first == again, "two runs from the same seed drew different letters: take every random number from rng");
    t.expect(first != other, "two different seeds drew the same 200 letters: the draws should come from rng");
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::compare("hidden_probs", 2, 1e-4, hidden_probs,
                            "divide every logit by the temperature, then softmax, subtracting the largest first"),
            grader::property("temperature_direction", 1, temperature_direction,
                             "a temperature below 1 should sharpen the distribution and one above 1 flatten it"),
            grader::property("distribution", 4, distribution,
                             "draw u = rng.uniform() once, then walk the probabilities adding them up until the sum "
                             "passes u"),
            grader::property("temperature_zero", 1, temperature_zero,
                             "temperature 0 means no draw: the letter with the largest logit, the first of them on a "
                             "tie"),
            grader::property("seeded", 1, seeded, "use the rng you are given for every random number"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
