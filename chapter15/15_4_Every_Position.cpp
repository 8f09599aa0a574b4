// 15_4_Every_Position.cpp: self-attention at every position of one sentence.
// Book section: 15.4 (with the causal mask of 15.5.1)
//
// Every position supplies a query, so the comparisons and the context rows
// come out of matrix products: S = Q K^T / sqrt(d_k), A = softmax_rows(S),
// Z = A V. With the causal mask, no row uses a later position.
#include <cmath>
#include <cstdio>

#include "colour_recall.hpp"

// Lab 4's attention over a whole sequence, with or without the causal mask.
struct SelfAttention {
    Matrix X, Q, K, V, S, A, Z;
};

static SelfAttention self_attention(const Params& p, const std::vector<int>& tokens, bool masked) {
    const int T = int(tokens.size());
    SelfAttention s;
    s.X = Matrix(T, D);  // (T x D): one embedding row per position
    for (int t = 0; t < T; t++)
        for (int c = 0; c < D; c++) s.X(t, c) = p.embeddings(tokens[t], c);
    s.Q = matmul(s.X, p.W_Q);                                                // (T x D_K)
    s.K = matmul(s.X, p.W_K);                                                // (T x D_K)
    s.V = matmul(s.X, p.W_V);                                                // (T x D_V)
    s.S = scale(matmul(s.Q, transpose(s.K)), 1.0f / std::sqrt(float(D_K)));  // (T x T): rows queries, columns keys
    s.A = softmax_rows(masked ? add(s.S, causal_mask(T)) : s.S);             // (T x T)
    s.Z = matmul(s.A, s.V);                                                  // (T x D_V)
    return s;
}

// Rows and columns labelled with the sentence's words.
static void print_weights(const Matrix& A, const std::vector<int>& tokens) {
    std::printf("  %-8s", "");
    for (int t : tokens) std::printf("%6.5s", WORDS[t]);
    std::printf("\n");
    for (int i = 0; i < A.rows; i++) {
        std::printf("  %-8s", WORDS[tokens[i]]);
        for (int j = 0; j < A.cols; j++) std::printf("%6.3f", A(i, j));
        std::printf("\n");
    }
}

// The two properties the text states, computed: rows sum to 1, and with the
// mask nothing above the diagonal.
static void check_rows(const Matrix& A, bool masked) {
    double worst_sum = 0.0, latest = 0.0;
    for (int i = 0; i < A.rows; i++) {
        double sum = 0.0;
        for (int j = 0; j < A.cols; j++) {
            sum += A(i, j);
            if (j > i) latest = std::fmax(latest, double(A(i, j)));
        }
        worst_sum = std::fmax(worst_sum, std::fabs(sum - 1.0));
    }
    std::printf("  every row sums to 1: %s (largest difference %.1e)\n", worst_sum < 1e-6 ? "yes" : "NO", worst_sum);
    if (masked)
        std::printf("  no row puts weight on a later position: %s (largest such weight %g)\n",
                    latest == 0.0 ? "yes" : "NO", latest);
    else std::printf("  largest weight on a later position: %.3f\n", latest);
}

static void show_model(const Params& p, const Example& sentence, const char* title) {
    std::printf("%s\n\nWeights A without the mask (rows: queries, columns: keys):\n", title);
    SelfAttention open = self_attention(p, sentence.tokens, false);
    print_weights(open.A, sentence.tokens);
    check_rows(open.A, false);
    std::printf("\nWeights A with the causal mask:\n");
    SelfAttention masked = self_attention(p, sentence.tokens, true);
    print_weights(masked.A, sentence.tokens);
    check_rows(masked.A, true);

    // Row 10 of the masked Z sees positions 1..10: the wear prefix of Lab 5.
    std::vector<int> prefix(sentence.tokens.begin(), sentence.tokens.end() - 1);
    Forward f = forward(p, prefix);
    double difference = 0.0;
    for (int c = 0; c < D_V; c++) {
        double gap = std::fabs(masked.Z(9, c) - f.z(0, c));
        if (gap > difference) difference = gap;  // not std::fmax: gcc 12 for aarch64 crashes vectorizing that at -O2
    }
    std::printf(
        "  row 10 of Z with the mask is the context vector at wear that training scored:\n"
        "  largest difference %g\n\n",
        difference);
}

static const char* USAGE =
    "usage: 15_4_Every_Position\n"
    "Self-attention at every position of \"The team colour is red . So the players wear red\"\n"
    "with Lab 4's model before and after the default training run (book sections 15.4, 15.5).\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    options.done();

    Example sentence = colour_prefix(0, false, false);  // the recorded sentence: the prefix and its next word
    sentence.text += " red";
    const int red = token_id("red");
    sentence.tokens.push_back(red);
    const int T = int(sentence.tokens.size());
    std::printf("Recorded sentence: %s (T = %d)\n\n", sentence.text.c_str(), T);

    const Params start = random_start(DEFAULT_SEED);
    SelfAttention s = self_attention(start, sentence.tokens, true);
    std::printf("The five shapes, with T = %d positions:\n", T);
    std::printf("  %-6s %-28s %-6s %s\n", "Matrix", "Meaning", "Shape", "here");
    const struct {
        const char* name;
        const char* meaning;
        const char* shape;
        const Matrix& m;
    } rows[] = {
        {"X", "embedding rows", "T x 8", s.X}, {"Q, K", "query and key rows", "T x 4", s.Q},
        {"V", "value rows", "T x 8", s.V},     {"S, A", "scores and attention weights", "T x T", s.A},
        {"Z", "context rows", "T x 8", s.Z},
    };
    for (const auto& r : rows)
        std::printf("  %-6s %-28s %-6s %d x %d\n", r.name, r.meaning, r.shape, r.m.rows, r.m.cols);
    std::printf("\n");

    const std::string before =
        formatted("Lab 4's model before training (seed %llu):", (unsigned long long)DEFAULT_SEED);
    show_model(start, sentence, before.c_str());
    show_model(trained_model(), sentence, "After 200 updates at lr 0.03:");
    return 0;
}
