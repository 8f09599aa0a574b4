// tests/unit/lanes_test.cpp: exp_lanes (chapter_tiny/lanes.hpp), one vector at a time and
// four at a time (exp_lanes_all), gives exp_f's bits in every lane: the floats in exp_f's working range, both ends and past them,
// infinities, quiet NaNs and zeros.
//
//   lanes_test               a stride through the floats (a second or so)
//   lanes_test --exhaustive  every float
//
// The tiny model's fast loops take every exp from exp_lanes, so this is what
// keeps them on the same bits as the plain loops and the C++ of other compilers.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "check.hpp"
#include "../../chapter_tiny/lanes.hpp"

static uint32_t bits(float x) {
    uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

int main(int argc, char** argv) {
    const bool exhaustive = argc > 1 && std::string(argv[1]) == "--exhaustive";
    const uint64_t stride = exhaustive ? 1 : 509;  // a prime, so the low bits vary too
    constexpr int BUNCH = 2 * EXP_BUNCH + 1;       // exp_lanes_all: its whole bunches and one more on its own
    float batch[BUNCH * LANES];
    int filled = 0;
    uint64_t tried = 0, differ = 0;
    auto compare = [&](float x, float want, float got, const char* how) {
        tried++;
        if (std::memcmp(&want, &got, sizeof want) != 0 && differ++ < 5)
            std::printf("%s(%.9g) = %.9g, exp_f gives %.9g (bits %08x, %08x, %08x)\n", how, x, got, want, bits(x),
                        bits(got), bits(want));
    };
    auto run = [&]() {
        Lanes x[BUNCH];
        std::memcpy(x, batch, sizeof x);
        exp_lanes_all(x, BUNCH);
        for (int v = 0; v < BUNCH; v++) {
            const Lanes one = exp_lanes(load_lanes(batch + v * LANES));
            for (int l = 0; l < LANES; l++) {
                const float in = batch[v * LANES + l], want = exp_f(in);
                compare(in, want, x[v][l], "exp_lanes_all");
                compare(in, want, one[l], "exp_lanes");
            }
        }
        filled = 0;
    };
    auto add = [&](float x) {
        batch[filled++] = x;
        if (filled == BUNCH * LANES) run();
    };
    for (uint64_t b = 0; b < (uint64_t(1) << 32); b += stride) {
        float x;
        const uint32_t pattern = uint32_t(b);
        // Signalling NaNs left out: exp_f itself returns them quieted at -O0, as they are at -O2.
        if ((pattern & 0x7fc00000u) == 0x7f800000u && (pattern & 0x003fffffu) != 0) continue;
        std::memcpy(&x, &pattern, sizeof x);
        add(x);
    }
    const float ends[] = {88.7228317f,
                          std::nextafter(88.7228317f, 100.0f),
                          -104.0f,
                          std::nextafter(-104.0f, 0.0f),
                          std::nextafter(-104.0f, -200.0f),
                          -103.972f,
                          -87.33655f,
                          0.0f,
                          -0.0f,
                          1e-30f,
                          -1e-30f,
                          INFINITY,
                          -INFINITY,
                          NAN,
                          1.0f,
                          -1.0f};
    for (float x : ends) add(x);
    while (filled != 0) add(0.5f);
    std::printf("exp_lanes: %llu results, %llu differ from exp_f\n", (unsigned long long)tried,
                (unsigned long long)differ);
    check(differ == 0, "exp_lanes and exp_lanes_all give exp_f's bits in every lane");
    return check_summary("lanes_test");
}
