// tests/bench/peak.cpp (make bench): the machine's own limit for the arithmetic
// the tiny model does, a float multiply and a separate add (no fused
// multiply-add, as everywhere in this project), counted as 2 FLOPs.
//
// CHAINS independent running values, each doing x = x * a + b over and over:
// enough of them that the multiply and add units never wait for a result.
// Timed with 1 lane (scalar), 4 lanes (SSE2, the plain x86-64 build's width)
// and 8 lanes (AVX2, the width of tiny_train's fast build; only when this
// program is built with -mavx2), on 1 and on 2 threads; the best of several
// runs. Prints one line per width: "peak <lanes> lanes: <1 thread> <2 threads> GFLOP/s".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

constexpr int CHAINS = 12;      // 12 values in flight: more than the units' latency times their number
constexpr long STEPS = 400000;  // steps per run: a millisecond or two, short enough to find a quiet moment

template <class V>
static double run_chains(float start) {
    V x[CHAINS], a, b;
    for (int c = 0; c < CHAINS; c++) x[c] = V{} + (start + 0.001f * c);
    a = V{} + 0.9999f;
    b = V{} + 0.0001f;  // x stays near 1: no overflow, no subnormals
    for (long s = 0; s < STEPS; s++)
#if defined(__GNUC__)
#pragma GCC unroll 12
#endif
        for (int c = 0; c < CHAINS; c++) x[c] = x[c] * a + b;
    double sum = 0.0;  // used, so the loop is not optimised away
    for (int c = 0; c < CHAINS; c++)
        for (size_t l = 0; l < sizeof(V) / sizeof(float); l++) sum += reinterpret_cast<const float*>(&x[c])[l];
    return sum;
}

// GFLOP/s of `threads` threads each running the chains, the best of 50 short runs
// (on a shared machine the best run is the one the others disturbed least).
template <class V>
static double gflops(int threads) {
    double best = 0.0;
    for (int run = 0; run < 50; run++) {
        std::vector<std::thread> pool;
        std::vector<double> sums(threads);
        auto started = std::chrono::steady_clock::now();
        for (int t = 0; t < threads; t++) pool.emplace_back([&sums, t] { sums[t] = run_chains<V>(1.0f + t); });
        for (std::thread& t : pool) t.join();
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        double flops = 2.0 * CHAINS * STEPS * (sizeof(V) / sizeof(float)) * threads;
        if (sums[0] == 12345.0) std::printf(" ");
        best = std::max(best, flops / seconds / 1e9);
    }
    return best;
}

template <class V>
static void report(const char* name) {
    std::printf("peak %d lanes (%s): %6.1f GFLOP/s on 1 thread, %6.1f on 2\n", int(sizeof(V) / sizeof(float)), name,
                gflops<V>(1), gflops<V>(2));
}

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float Four __attribute__((vector_size(16)));
typedef float Eight __attribute__((vector_size(32)));
#endif

int main() {
    report<float>("scalar");
#if defined(__GNUC__)
    report<Four>("SSE2");
#if defined(__AVX2__)
    report<Eight>("AVX2");
#endif
#endif
    return 0;
}
