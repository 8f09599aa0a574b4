// tests/grader/tiny.3.cpp: the tests of exercise tiny.3 (chapter_tiny/exercises/ex3_Level_Backward.cpp),
// level_backward against central finite differences.
//
// The loss, sum of out times random numbers, is computed here again in double
// (a level of its own), with step 1e-5. Threshold 1e-3 of the part's size
// (||analytic - numeric|| / (||analytic|| + ||numeric||)), as in tiny.2: far
// above float rounding, far below a wrong sign (1) or a missing term of din (0.1 or more).
#include "grader.hpp"

// level_backward adds into din, dgain and dbias, which travel both ways; the
// adapter gives the pointers their buffers in the student's process.
static void run_level_backward(std::vector<float>& din, std::vector<float>& dgain, std::vector<float>& dbias,
                               const std::vector<float>& dout, const std::vector<float>& in,
                               const std::vector<float>& mean, const std::vector<float>& rstd,
                               const std::vector<float>& gain, int T) {
    level_backward(din.data(), dgain.data(), dbias.data(), dout.data(), in.data(), mean.data(), rstd.data(),
                   gain.data(), T);
}

// The functions the student writes (through their adapters): the tests call them in the student's process.
#define STUDENT_FUNCTIONS(X) X(run_level_backward)
GRADER_STUDENT_FUNCTIONS(STUDENT_FUNCTIONS)

#ifdef GRADER_CHECKER
namespace tests {
using grader::Test;

constexpr double H = 1e-5;
constexpr double THRESHOLD = 1e-3;

struct Case {
    int T;
    std::vector<float> in, gain, bias, direction;
};

static Case random_case(Test& t, int T = 0) {
    Case c{T > 0 ? T : t.size(1, 8), {}, {}, {}, {}};
    for (int r = 0; r < c.T; r++) {  // each row its own mean and spread
        const float mean = t.uniform(-3.0f, 3.0f), spread = t.uniform(0.2f, 4.0f);
        for (int i = 0; i < WIDTH; i++) c.in.push_back(mean + spread * t.uniform(-1.0f, 1.0f));
    }
    c.gain = t.vector(WIDTH, 0.5f, 1.5f);
    c.bias = t.vector(WIDTH, -0.5f, 0.5f);
    c.direction = t.vector(c.T * WIDTH);
    return c;
}

// in, gain, bias in double: part 0, 1 or 2 is the one moved.
static double loss_in_double(const Case& c, const std::vector<double>& in, const std::vector<double>& gain,
                             const std::vector<double>& bias) {
    double loss = 0.0;
    for (int t = 0; t < c.T; t++) {
        double mean = 0.0, spread = 0.0;
        for (int i = 0; i < WIDTH; i++) mean += in[t * WIDTH + i] / WIDTH;
        for (int i = 0; i < WIDTH; i++) spread += (in[t * WIDTH + i] - mean) * (in[t * WIDTH + i] - mean) / WIDTH;
        const double r = 1.0 / std::sqrt(spread + double(LEVEL_EPSILON));
        for (int i = 0; i < WIDTH; i++)
            loss += ((in[t * WIDTH + i] - mean) * r * gain[i] + bias[i]) * c.direction[t * WIDTH + i];
    }
    return loss;
}

// The same case at every seed: rows at the drawn ranges' ends (spread 0.2 and
// 4, means -3 and 3), gains 0.5 to 1.5, a direction of both signs.
static Case fixed_case() {
    Case c{3, {}, {}, {}, {}};
    const float means[3] = {-3.0f, 3.0f, 0.0f}, spreads[3] = {0.2f, 4.0f, 1.0f};
    for (int r = 0; r < c.T; r++)
        for (int i = 0; i < WIDTH; i++) c.in.push_back(means[r] + spreads[r] * float((i * 7 + r) % 11 - 5) / 5.0f);
    for (int i = 0; i < WIDTH; i++)
        c.gain.push_back(0.5f + float(i % 5) / 4.0f), c.bias.push_back(float(i % 3) / 4.0f - 0.25f);
    for (int i = 0; i < c.T * WIDTH; i++) c.direction.push_back(float((i * 5) % 9 - 4) / 4.0f);
    return c;
}

static void check_part(Test& t, int part) {
    const char* names[3] = {"din", "dgain", "dbias"};
    for (int round = 0; round < 4; round++) {
        Case c = round < 3 ? random_case(t) : fixed_case();
        std::vector<float> out(c.in.size()), mean(size_t(c.T)), rstd(size_t(c.T));
        level_forward(out.data(), mean.data(), rstd.data(), c.in.data(), c.gain.data(), c.bias.data(), c.T);
        std::vector<float> din(c.in.size(), 0.0f), dgain(WIDTH, 0.0f), dbias(WIDTH, 0.0f);
        run_level_backward(din, dgain, dbias, c.direction, c.in, mean, rstd, c.gain, c.T);
        std::vector<double> x[3] = {
            {c.in.begin(), c.in.end()}, {c.gain.begin(), c.gain.end()}, {c.bias.begin(), c.bias.end()}};
        const std::vector<float>* grads[3] = {&din, &dgain, &dbias};
        std::vector<double> analytic(grads[part]->begin(), grads[part]->end()), numeric;
        for (size_t i = 0; i < x[part].size(); i++) {
            const double kept = x[part][i];
            x[part][i] = kept + H;
            const double up = loss_in_double(c, x[0], x[1], x[2]);
            x[part][i] = kept - H;
            const double down = loss_in_double(c, x[0], x[1], x[2]);
            x[part][i] = kept;
            numeric.push_back((up - down) / (2 * H));
        }
        for (double g : analytic) t.expect(std::isfinite(g), "%s holds %g", names[part], g);
        const double error = grader::rel_error_norm(analytic, numeric);
        t.expect(error < THRESHOLD, "%s: relative error %.2e against finite differences (threshold %.0e), for %d rows",
                 names[part], error, THRESHOLD, c.T);
    }
}

// Many rows in one call, as a training batch brings them. The analytic pass
// takes a fraction of a second; differencing a forward pass, even row by row
// and optimised, about 200 times that (8 s for 131,072 rows on a quiet machine
// here, so four times as many rows), past the time limit. The want is the same gradient worked out here in
// double, since differencing it here would be as slow.
constexpr int LARGE_ROWS = 1 << 19;
static void check_many_rows(Test& t, int part) {
    const char* names[3] = {"din", "dgain", "dbias"};
    Case c = random_case(t, LARGE_ROWS);
    std::vector<float> out(c.in.size()), mean(size_t(c.T)), rstd(size_t(c.T));
    level_forward(out.data(), mean.data(), rstd.data(), c.in.data(), c.gain.data(), c.bias.data(), c.T);
    std::vector<float> din(c.in.size(), 0.0f), dgain(WIDTH, 0.0f), dbias(WIDTH, 0.0f);
    run_level_backward(din, dgain, dbias, c.direction, c.in, mean, rstd, c.gain, c.T);
    std::vector<double> want[3] = {std::vector<double>(c.in.size()), std::vector<double>(WIDTH),
                                   std::vector<double>(WIDTH)};
    for (int r = 0; r < c.T; r++) {
        const float* x = &c.in[size_t(r) * WIDTH];
        const float* d = &c.direction[size_t(r) * WIDTH];
        double m = 0.0, spread = 0.0, dnorm_mean = 0.0, dnorm_norm_mean = 0.0, norm[WIDTH];
        for (int i = 0; i < WIDTH; i++) m += double(x[i]) / WIDTH;
        for (int i = 0; i < WIDTH; i++) spread += (x[i] - m) * (x[i] - m) / WIDTH;
        const double rs = 1.0 / std::sqrt(spread + double(LEVEL_EPSILON));
        for (int i = 0; i < WIDTH; i++) {
            norm[i] = (x[i] - m) * rs;
            dnorm_mean += double(d[i]) * c.gain[i] / WIDTH;
            dnorm_norm_mean += double(d[i]) * c.gain[i] * norm[i] / WIDTH;
        }
        for (int i = 0; i < WIDTH; i++) {
            want[0][size_t(r) * WIDTH + i] = (double(d[i]) * c.gain[i] - dnorm_mean - norm[i] * dnorm_norm_mean) * rs;
            want[1][size_t(i)] += double(d[i]) * norm[i];
            want[2][size_t(i)] += double(d[i]);
        }
    }
    const std::vector<float>* grads[3] = {&din, &dgain, &dbias};
    const std::vector<double> analytic(grads[part]->begin(), grads[part]->end());
    const double error = grader::rel_error_norm(analytic, want[part]);
    t.expect(error < THRESHOLD,
             "%s: relative error %.2e against the gradient worked out in double (threshold %.0e), "
             "for %d rows in one call",
             names[part], error, THRESHOLD, c.T);
}

static void input(Test& t) { check_part(t, 0), check_many_rows(t, 0); }
static void gain(Test& t) { check_part(t, 1), check_many_rows(t, 1); }
static void bias(Test& t) { check_part(t, 2), check_many_rows(t, 2); }

static void adds_into(Test& t) {
    Case c = random_case(t);
    std::vector<float> out(c.in.size()), mean(size_t(c.T)), rstd(size_t(c.T));
    level_forward(out.data(), mean.data(), rstd.data(), c.in.data(), c.gain.data(), c.bias.data(), c.T);
    std::vector<float> din(c.in.size(), 0.0f), dgain(WIDTH, 0.0f), dbias(WIDTH, 0.0f);
    std::vector<float> din2 = t.vector(c.T * WIDTH), dgain2 = t.vector(WIDTH), dbias2 = t.vector(WIDTH);
    const std::vector<float> held[3] = {din2, dgain2, dbias2};
    run_level_backward(din, dgain, dbias, c.direction, c.in, mean, rstd, c.gain, c.T);
    run_level_backward(din2, dgain2, dbias2, c.direction, c.in, mean, rstd, c.gain, c.T);
    const std::vector<float>* fresh[3] = {&din, &dgain, &dbias};
    const std::vector<float>* filled[3] = {&din2, &dgain2, &dbias2};
    const char* names[3] = {"din", "dgain", "dbias"};
    for (int k = 0; k < 3; k++) {
        double moved = 0.0;
        for (float g : *fresh[k]) moved += std::fabs(g);
        t.expect(moved > 0.0, "level_backward added nothing to %s", names[k]);
        for (size_t i = 0; i < fresh[k]->size(); i++) {
            const float want = held[k][i] + (*fresh[k])[i];
            t.expect(std::fabs((*filled[k])[i] - want) <= 1e-5f * (1.0f + std::fabs(want)),
                     "%s[%zu] held %g and "
                     "should have become %g, but it is %g",
                     names[k], i, double(held[k][i]), double(want), double((*filled[k])[i]));
        }
    }
}

}  // namespace tests

int main(int argc, char** argv) {
    using namespace tests;
    return grader::run(
        argc, argv, GRADER_LESSON(lesson_main),
        {
            grader::property("din", 4, input,
                             "every input also moves its row's mean and its spread: din needs a term for "
                             "each, besides its own dout through gain and rstd"),
            grader::property("dgain", 1, gain, "a gain multiplies norm: add up its contribution over the rows"),
            grader::property("dbias", 1, bias, "a bias is added to every row"),
            grader::property("adds_into", 1, adds_into, "add into din, dgain and dbias (+=): never overwrite"),
            grader::printed_output(1, "run your program: it should print what the reference prints"),
        });
}
#endif
