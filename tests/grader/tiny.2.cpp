// tests/grader/tiny.2.cpp: the tests of exercise tiny.2 (chapter_tiny/exercises/ex2_Attend_Backward.cpp),
// attend_backward against central finite differences.
//
// The loss, sum of found times random numbers, is computed here again in
// double (an attend of its own), with step 1e-5: the differences are good to
// about 1e-9. We accept ||analytic - numeric|| / (||analytic|| + ||numeric||)
// below 1e-3 for each part (queries, keys, values): a hundred times float
// rounding (CS231n's notes call 1e-2 and above probably wrong), while a wrong
// sign gives 1 and a missing 1/sqrt(SIZE) about 0.2.
#include "grader.hpp"

// attend_backward adds into dlookups, which travels both ways; the adapter gives
// the pointers their buffers in the student's process.
static void run_attend_backward(std::vector<float>& dlookups, const std::vector<float>& dfound,
                                const std::vector<float>& weights, const std::vector<float>& lookups, int T) {
    attend_backward(dlookups.data(), dfound.data(), weights.data(), lookups.data(), T);
}

// The functions the student writes (through their adapters): the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(run_attend_backward)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr double H = 1e-5;
constexpr double THRESHOLD = 1e-3;

static double loss_in_double(const std::vector<double>& lookups, const std::vector<float>& direction, int T) {
    double loss = 0.0;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < HEADS; h++) {
            std::vector<double> w(size_t(t) + 1);
            double top = -1e300, total = 0.0;
            for (int s = 0; s <= t; s++) {
                w[s] = 0.0;
                for (int i = 0; i < SIZE; i++)
                    w[s] += lookups[t * 3 * WIDTH + h * SIZE + i] * lookups[s * 3 * WIDTH + WIDTH + h * SIZE + i];
                w[s] /= std::sqrt(double(SIZE));
                top = std::fmax(top, w[s]);
            }
            for (double& x : w) total += (x = exp_d(x - top));
            for (int i = 0; i < SIZE; i++) {
                double found = 0.0;
                for (int s = 0; s <= t; s++) found += w[s] / total * lookups[s * 3 * WIDTH + 2 * WIDTH + h * SIZE + i];
                loss += found * direction[t * WIDTH + h * SIZE + i];
            }
        }
    return loss;
}

// The same case at every seed: 4 letters, letters 1 and 2 alike (a tie in
// the later rows' scores), numbers to +-1.5 as drawn, a direction of both signs.
constexpr int FIXED_T = 4;
static std::vector<float> fixed_lookups() {
    std::vector<float> lookups;
    for (int s = 0; s < FIXED_T; s++)
        for (int i = 0; i < 3 * WIDTH; i++) lookups.push_back(float(((s == 2 ? 1 : s) * 5 + i * 7) % 13 - 6) / 4.0f);
    return lookups;
}
static std::vector<float> fixed_direction() {
    std::vector<float> direction;
    for (int i = 0; i < FIXED_T * WIDTH; i++) direction.push_back(float((i * 5) % 9 - 4) / 4.0f);
    return direction;
}

// part 0, 1, 2: the queries, keys or values of every letter.
static void check_part(Test& t, int part) {
    const char* names[3] = {"queries", "keys", "values"};
    for (int round = 0; round < 4; round++) {
        const int T = round < 3 ? t.size(1, 12) : FIXED_T;
        std::vector<float> lookups = round < 3 ? t.vector(T * 3 * WIDTH, -1.5f, 1.5f) : fixed_lookups(),
                           direction = round < 3 ? t.vector(T * WIDTH) : fixed_direction();
        std::vector<float> found(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);
        attend_forward(found.data(), weights.data(), lookups.data(), T);  // the reference's forward pass
        std::vector<float> dlookups(lookups.size(), 0.0f);
        run_attend_backward(dlookups, direction, weights, lookups, T);
        std::vector<double> wide(lookups.begin(), lookups.end()), analytic, numeric;
        for (int s = 0; s < T; s++)
            for (int i = 0; i < WIDTH; i++) {
                const size_t at = size_t(s) * 3 * WIDTH + part * WIDTH + i;
                const double kept = wide[at];
                wide[at] = kept + H;
                const double up = loss_in_double(wide, direction, T);
                wide[at] = kept - H;
                const double down = loss_in_double(wide, direction, T);
                wide[at] = kept;
                numeric.push_back((up - down) / (2 * H));
                analytic.push_back(dlookups[at]);
                t.expect(std::isfinite(dlookups[at]), "a gradient of the %s is %g", names[part], double(dlookups[at]));
            }
        const double error = grader::rel_error_norm(analytic, numeric);
        t.expect(error < THRESHOLD,
                 "%s: relative error %.2e against finite differences (threshold %.0e), for %d "
                 "letters",
                 names[part], error, THRESHOLD, T);
    }
}

static void queries(Test& t) { check_part(t, 0); }
static void keys(Test& t) { check_part(t, 1); }
static void values(Test& t) { check_part(t, 2); }

static void adds_into(Test& t) {
    const int T = t.size(2, 12);
    std::vector<float> lookups = t.vector(T * 3 * WIDTH, -1.5f, 1.5f), direction = t.vector(T * WIDTH);
    std::vector<float> found(size_t(T) * WIDTH), weights(size_t(HEADS) * T * T);
    attend_forward(found.data(), weights.data(), lookups.data(), T);
    std::vector<float> fresh(lookups.size(), 0.0f), filled = t.vector(T * 3 * WIDTH);
    const std::vector<float> before = filled;
    run_attend_backward(fresh, direction, weights, lookups, T);
    run_attend_backward(filled, direction, weights, lookups, T);
    double moved = 0.0;
    for (float g : fresh) moved += std::fabs(g);
    t.expect(moved > 0.0, "attend_backward added nothing to dlookups");
    for (size_t i = 0; i < fresh.size(); i++)
        t.expect(std::fabs(filled[i] - before[i] - fresh[i]) <= 1e-5f * (1.0f + std::fabs(fresh[i])),
                 "dlookups[%zu] held %g and should have grown by %g, but became %g", i, double(before[i]),
                 double(fresh[i]), double(filled[i]));
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("values", 2, values,
                             "found is a weighted sum of the values: what does each value get back?"),
            grader::property("keys", 2, keys,
                             "through the softmax, every score's gradient depends on the whole row of "
                             "weights; and the scores were multiplied by 1/sqrt(SIZE)"),
            grader::property("queries", 2, queries,
                             "the query of letter t was used in every score of its row, s = 0..t"),
            grader::property("adds_into", 1, adds_into, "add into dlookups (+=): never overwrite what it holds"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
