// ex4_Parameter_Count.cpp: Q/K/V attention's weights against a fully connected layer's.
// Book section: 20.9 (exercise 4)
// Exercise: 20.4
//
// Attention at transformer scale, d_model = 512 and d_k = d_v = 64 (20.6), set
// against a fully connected layer with "the same input and output size". That
// phrase has two readings, one head's (512 -> 64) and the whole layer's
// (512 -> 512), so we count both.
//
// You write:
//   long long attention_weights(long long d_model, long long d_k, long long d_v);
//     the weights of one Q/K/V attention head: W_Q and W_K are (d_k x d_model),
//     W_V is (d_v x d_model); no biases.
//   long long dense_weights(long long in, long long out, bool with_biases);
//     the parameters of a fully connected layer from `in` inputs to `out`
//     outputs: its weight matrix, and with_biases adds one bias per output.
// The grader calls both on the book's sizes and on random sizes up to 100000;
// main prints the lesson.
#include <cstdio>
#include <string>

#include "attention109.hpp"
#include "cli.hpp"

// 98304 -> "98,304", as the book writes counts.
static std::string with_commas(long long n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); i++) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// One head's three projections, W_Q and W_K (d_k x d_model) and W_V (d_v x d_model).
static long long attention_weights(long long d_model, long long d_k, long long d_v) {
    // BEGIN SOLUTION
    return (2 * d_k + d_v) * d_model;
    // STUB: (void)d_model, (void)d_k, (void)d_v;
    // STUB: return 0;
    // END SOLUTION
}

// A fully connected layer in -> out: a weight matrix, and one bias per output.
static long long dense_weights(long long in, long long out, bool with_biases) {
    // BEGIN SOLUTION
    return in * out + (with_biases ? out : 0);
    // STUB: (void)in, (void)out, (void)with_biases;
    // STUB: return 0;
    // END SOLUTION
}

// A fully connected layer in -> out, against one attention head.
static void print_dense(const char* reading, long long in, long long out, long long attention) {
    long long weights = dense_weights(in, out, false);
    std::printf("  %s: %lld -> %lld\n", reading, in, out);
    std::printf("    weights %lld x %lld = %s, with biases %s\n", in, out, with_commas(weights).c_str(),
                with_commas(dense_weights(in, out, true)).c_str());
    std::printf("    one attention head has %.3g times as many weights (%s against %s)\n",
                double(attention) / double(weights), with_commas(attention).c_str(), with_commas(weights).c_str());
}

static const char* USAGE =
    "usage: ex4_Parameter_Count [--d-model N] [--d-k N] [--d-v N]\n"
    "\n"
    "Counts the weights of one Q/K/V attention head, (2*d_k + d_v) * d_model,\n"
    "and of a fully connected layer d_model -> d_v and d_model -> d_model.\n"
    "\n"
    "  --d-model N  input size (default 512)\n"
    "  --d-k N      query and key size (default 64)\n"
    "  --d-v N      value size (default 64)\n"
    "  --help       this text\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    long long d_model = options.integer("d-model", 512, 1, 100000);
    long long d_k = options.integer("d-k", 64, 1, 100000);
    long long d_v = options.integer("d-v", 64, 1, 100000);
    options.done();

    long long per_head = attention_weights(d_model, d_k, d_v);
    std::printf("One Q/K/V attention head, d_model = %lld, d_k = %lld, d_v = %lld\n\n", d_model, d_k, d_v);
    std::printf("  W_Q  d_k x d_model = %lld x %lld = %s\n", d_k, d_model, with_commas(d_k * d_model).c_str());
    std::printf("  W_K  d_k x d_model = %lld x %lld = %s\n", d_k, d_model, with_commas(d_k * d_model).c_str());
    std::printf("  W_V  d_v x d_model = %lld x %lld = %s\n", d_v, d_model, with_commas(d_v * d_model).c_str());
    std::printf("  (2 * d_k + d_v) * d_model = %s per head, no biases\n", with_commas(per_head).c_str());

    std::printf("\nA fully connected layer with the same input and output size, read two ways:\n\n");
    print_dense("same sizes as one head (input d_model, output d_v)", d_model, d_v, per_head);
    print_dense("same size out as in (input and output d_model)", d_model, d_model, per_head);

    // Heads of width d_v side by side give back d_model outputs (chapter 21).
    if (d_model % d_v == 0) {
        long long heads = d_model / d_v;
        std::printf("\n%lld heads of d_v = %lld give d_model = %lld outputs again: %lld x %s = %s weights,\n", heads,
                    d_v, d_model, heads, with_commas(per_head).c_str(), with_commas(heads * per_head).c_str());
        std::printf("%.3g times the %lld -> %lld layer.\n", double(heads * per_head) / double(d_model * d_model),
                    d_model, d_model);
    }

    // The same formula gives listing 109's printed count for its toy sizes.
    std::printf("\nListing 109's sizes, d_model = %d, d_k = %d, d_v = %d: (2 * %d + %d) * %d = %lld\n", DM, DK, DV, DK,
                DV, DM, attention_weights(DM, DK, DV));
    return 0;
}
