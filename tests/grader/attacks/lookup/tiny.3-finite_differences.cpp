// Exercise: tiny.3
// Attack: lookup/finite_differences
// Rule: under 30%
// Why: no backward pass at all: every gradient is a central difference of level's forward pass, written in double, row by row (the cheapest way to difference it). It is as accurate as the grader's own check; only its cost gives it away, hundreds of times the analytic pass, on the grader's many-row calls.
//@ helpers
#include <cmath>
//@ body level_backward
    const double h = 1e-4;
    for (int t = 0; t < T; t++) {
        const float* x = in + t * WIDTH;
        const float* d = dout + t * WIDTH;
        double row[WIDTH], g[WIDTH], b[WIDTH];
        for (int i = 0; i < WIDTH; i++) row[i] = x[i], g[i] = gain[i], b[i] = 0.0;
        auto loss = [&]() {
            double m = 0.0, s = 0.0, total = 0.0;
            for (int i = 0; i < WIDTH; i++) m += row[i] / WIDTH;
            for (int i = 0; i < WIDTH; i++) s += (row[i] - m) * (row[i] - m) / WIDTH;
            const double r = 1.0 / std::sqrt(s + double(LEVEL_EPSILON));
            for (int i = 0; i < WIDTH; i++) total += ((row[i] - m) * r * g[i] + b[i]) * d[i];
            return total;
        };
        for (double* p : {row, g, b}) {
            float* into = p == row ? din + t * WIDTH : p == g ? dgain : dbias;
            for (int i = 0; i < WIDTH; i++) {
                const double kept = p[i];
                p[i] = kept + h;
                const double up = loss();
                p[i] = kept - h;
                const double down = loss();
                p[i] = kept;
                into[i] += float((up - down) / (2 * h));
            }
        }
    }
    (void)mean, (void)rstd;
}
