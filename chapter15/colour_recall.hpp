// chapter15/colour_recall.hpp: Lab 4's colour-recall model and Lab 5's training,
// with every gradient written by hand (book sections 15.2-15.4, 15.6, 15.7).
//
// Sections, in the order a reader needs them: the task (vocabulary and
// texts), the model (parameters, forward and backward side by side), Adam,
// training and the table's measurements, and the parameter file format.
// The book trains with PyTorch autograd; here each forward step has its
// backward step beside it, and tests/unit/colour_recall_grad_test.cpp checks
// every one against finite differences. These are the chapter's plain loops;
// colour_recall_fast.hpp computes the same bits faster, for the programs that
// train the model hundreds of times.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.hpp"
#include "maths.hpp"  // exp_f, log_f, power
#include "matrix.hpp"

// ===========================================================================
// The task (15.2)

constexpr int D = 8;           // embedding components
constexpr int D_K = 4;         // query and key components (scores are divided by sqrt(4) = 2)
constexpr int D_V = 8;         // value components
constexpr int COLOUR_POS = 4;  // the stated colour is at position 5 (index 4) in every text

// The words and punctuation of the lab texts: 17 tokens. "The" and "the" differ.
constexpr int VOCAB = 17;
const char* const WORDS[VOCAB] = {"The",      "team",    "colour", "is", "red",   "blue", "black", ".",   "game",
                                  "starting", "players", "are",    "on", "court", "So",   "the",   "wear"};
inline const std::vector<std::string>& vocabulary() {
    static const std::vector<std::string> words(WORDS, WORDS + VOCAB);
    return words;
}
const char* const COLOURS[3] = {"red", "blue", "black"};

// Token ids for a text written with spaces between tokens ("red ." not "red.").
inline std::vector<int> tokenize(const std::string& text, const std::vector<std::string>& words = vocabulary()) {
    std::vector<int> ids;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        int id = -1;
        for (size_t i = 0; i < words.size(); i++)
            if (text.compare(start, end - start, words[i]) == 0) id = int(i);
        if (id < 0) fail(formatted("the word '%.*s' is not in the vocabulary", int(end - start), text.c_str() + start));
        ids.push_back(id);
        start = end + 1;
    }
    return ids;
}

inline int token_id(const char* word) { return tokenize(word)[0]; }

struct Example {
    std::string text;         // the prefix, tokens separated by spaces
    std::vector<int> tokens;  // its token ids; the prediction is made at the last one
    int target;               // the stated colour, the next token
};

const char* const GAME = "The game is starting . ";
const char* const PLAYERS = "The players are on court . ";

inline Example colour_prefix(int colour, bool game, bool players) {
    std::string text = formatted("The team colour is %s . %s%sSo the players wear", COLOURS[colour], game ? GAME : "",
                                 players ? PLAYERS : "");
    return {text, tokenize(text), token_id(COLOURS[colour])};
}

// Nine training prefixes: each colour with nothing, the game sentence or the
// players sentence inserted, so wear is at position 10, 15 or 16.
// The first is the book's "The team colour is red . So the players wear".
inline std::vector<Example> training_examples() {
    std::vector<Example> examples(9);
    for (int i = 0; i < 9; i++)  // colour i / 3, with nothing, the game or the players sentence
        examples[i] = colour_prefix(i / 3, i % 3 == 1, i % 3 == 2);
    return examples;
}

// Three validation prefixes with both sentences inserted: wear at position 21.
inline std::vector<Example> validation_examples() {
    std::vector<Example> examples(3);
    for (int colour = 0; colour < 3; colour++) examples[colour] = colour_prefix(colour, true, true);
    return examples;
}

// ===========================================================================
// The model (Lab 4)

struct Params {
    Matrix embeddings;  // (vocab x D)   one row per token
    Matrix W_Q;         // (D x D_K)     embedding -> query
    Matrix W_K;         // (D x D_K)     embedding -> key
    Matrix W_V;         // (D x D_V)     embedding -> value
    Matrix W_out;       // (D_V x vocab) context vector -> a score per token
    Matrix bias;        // (1 x vocab)   output bias, zero at the start

    explicit Params(int vocab = VOCAB)
        : embeddings(vocab, D), W_Q(D, D_K), W_K(D, D_K), W_V(D, D_V), W_out(D_V, vocab), bias(1, vocab) {}

    // The blocks the optimiser updates, in the order PyTorch's parameters() gives them.
    std::vector<Matrix*> blocks() { return {&embeddings, &W_Q, &W_K, &W_V, &W_out, &bias}; }
    std::vector<const Matrix*> blocks() const { return {&embeddings, &W_Q, &W_K, &W_V, &W_out, &bias}; }
};
const char* const BLOCK_NAMES[6] = {"embeddings", "W_Q", "W_K", "W_V", "W_out", "bias"};

// Starting values: every entry of the embeddings and matrices normal with
// standard deviation INIT_SCALE, from our own generator; the bias zero.
// A small scale keeps the scores and logits near 0, so the starting weights
// are about 1/T and p(red) about 1/17, as in the book. This seed and scale
// are the start whose run is nearest the book's table and 15.3 figures, found
// by lab5_runs --search (chapter15/README.md, "Choosing the start").
constexpr float INIT_SCALE = 0.24f;
constexpr uint64_t DEFAULT_SEED = 825062;

inline Params random_start(uint64_t seed, int vocab = VOCAB, float init_scale = INIT_SCALE) {
    Rng rng(seed);
    Params p(vocab);
    for (Matrix* block : p.blocks())  // embeddings, W_Q, W_K, W_V, W_out: the draws in that order
        if (block != &p.bias) *block = random_normal(block->rows, block->cols, rng, init_scale);
    return p;
}

// Everything the forward pass computed for one prefix, kept for the backward pass.
struct Forward {
    Matrix X;        // (T x D)     the embedding rows, one per position
    Matrix q;        // (1 x D_K)   the query at the last position
    Matrix K;        // (T x D_K)   one key per position
    Matrix V;        // (T x D_V)   one value per position
    Matrix scores;   // (1 x T)     q . k_j / sqrt(D_K)
    Matrix weights;  // (1 x T)     softmax of the scores: the attention row
    Matrix z;        // (1 x D_V)   the context vector, sum_j a_j v_j
    Matrix logits;   // (1 x vocab) z W_out + bias
    Matrix probs;    // (1 x vocab) softmax of the logits
};

// The prediction at the last position of one prefix.
inline Forward forward(const Params& p, const std::vector<int>& tokens) {
    const int T = int(tokens.size());
    Forward f;
    f.X = Matrix(T, D);  // (T x D): row t is the embedding of token t
    for (int t = 0; t < T; t++)
        for (int c = 0; c < D; c++) f.X(t, c) = p.embeddings(tokens[t], c);

    Matrix x_last(1, D);  // (1 x D): the query comes from the last position only
    for (int c = 0; c < D; c++) x_last(0, c) = f.X(T - 1, c);
    f.q = matmul(x_last, p.W_Q);  // (1 x D_K)
    f.K = matmul(f.X, p.W_K);     // (T x D_K): K = X W_K, one key row per position
    f.V = matmul(f.X, p.W_V);     // (T x D_V): V = X W_V, one value row per position

    const float score_scale = 1.0f / std::sqrt(float(D_K));  // divide by 2
    f.scores = Matrix(1, T);                                 // (1 x T)
    for (int j = 0; j < T; j++) f.scores(0, j) = dot(f.q.row(0), f.K.row(j), D_K) * score_scale;
    f.weights = softmax_rows(f.scores);  // (1 x T)

    f.z = matmul(f.weights, f.V);                  // (1 x D_V): z = sum_j a_j v_j
    f.logits = add(matmul(f.z, p.W_out), p.bias);  // (1 x vocab)
    f.probs = softmax_rows(f.logits);
    return f;
}

// -log p(target), computed from the logits so it stays finite when p rounds to 1 or 0.
inline float cross_entropy(const Matrix& logits, int target) {
    float biggest = logits(0, 0);
    for (int i = 1; i < logits.cols; i++)
        if (logits(0, i) > biggest) biggest = logits(0, i);
    float total = 0.0f;
    for (int i = 0; i < logits.cols; i++) total += exp_f(logits(0, i) - biggest);
    return log_f(total) - (logits(0, target) - biggest);
}

// Backward pass of loss_weight * -log p(target) for one prefix, added into
// grad (same shapes as the parameters). Each step undoes one forward step,
// last first. (Exercise 15.3 is to write it: its handout declares it here.)
// BEGIN SOLUTION exercise 15.3: the backward pass, which you write in ex3_Colour_Backward.cpp
// STUB: void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
// STUB:               float loss_weight, Params& grad);
inline void backward(const Params& p, const std::vector<int>& tokens, const Forward& f, int target, float loss_weight,
                     Params& grad) {
    const int T = int(tokens.size()), vocab = p.bias.cols;
    const float score_scale = 1.0f / std::sqrt(float(D_K));

    // logits = z W_out + bias; d(-log p_target)/d logits = probs - onehot(target)
    Matrix d_logits(1, vocab);  // (1 x vocab)
    for (int i = 0; i < vocab; i++) d_logits(0, i) = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    for (int i = 0; i < vocab; i++) grad.bias(0, i) += d_logits(0, i);
    for (int r = 0; r < D_V; r++)
        for (int i = 0; i < vocab; i++) grad.W_out(r, i) += f.z(0, r) * d_logits(0, i);
    Matrix d_z(1, D_V);  // (1 x D_V): d_logits W_out^T
    for (int r = 0; r < D_V; r++) d_z(0, r) = dot(d_logits.row(0), p.W_out.row(r), vocab);

    // z = sum_j a_j v_j: d a_j = d_z . v_j, and d v_j = a_j d_z (used below)
    Matrix d_weights(1, T);  // (1 x T)
    for (int j = 0; j < T; j++) d_weights(0, j) = dot(d_z.row(0), f.V.row(j), D_V);

    // a = softmax(s): d s_j = a_j (d a_j - sum_l a_l d a_l)
    float mean_d_weight = dot(f.weights.row(0), d_weights.row(0), T);
    Matrix d_scores(1, T);  // (1 x T)
    for (int j = 0; j < T; j++) d_scores(0, j) = f.weights(0, j) * (d_weights(0, j) - mean_d_weight);

    // s_j = q . k_j / 2: d q = sum_j d s_j k_j / 2, and d k_j = d s_j q / 2 (used below)
    Matrix d_q(1, D_K);  // (1 x D_K)
    for (int j = 0; j < T; j++)
        for (int c = 0; c < D_K; c++) d_q(0, c) += d_scores(0, j) * f.K(j, c) * score_scale;

    // k_j = x_j W_K and v_j = x_j W_V at each position j: the embedding row x_j gets back
    // d k_j W_K^T + d v_j W_V^T, and W_K and W_V collect x_j^T d k_j and x_j^T d v_j.
    // d k_j = d s_j (q/2) and d v_j = a_j d_z are each a number times a vector shared by every position,
    // and the number stays outside the sums: multiplied in first, the floats round apart and goldens move.
    float key_back[D], value_back[D];  // (D): (q/2) W_K^T and d_z W_V^T, the same at every position
    for (int r = 0; r < D; r++) {
        key_back[r] = 0.0f, value_back[r] = 0.0f;
        for (int c = 0; c < D_K; c++) key_back[r] += f.q(0, c) * score_scale * p.W_K(r, c);
        for (int c = 0; c < D_V; c++) value_back[r] += d_z(0, c) * p.W_V(r, c);
    }
    float sum_ds_x[D] = {}, sum_a_x[D] = {};  // (D): sum_j d s_j x_j and sum_j a_j x_j
    for (int j = 0; j < T; j++) {
        const float ds = d_scores(0, j), a = f.weights(0, j);
        for (int r = 0; r < D; r++) {
            grad.embeddings(tokens[j], r) += ds * key_back[r] + a * value_back[r];  // d k_j W_K^T + d v_j W_V^T
            sum_ds_x[r] += ds * f.X(j, r);
            sum_a_x[r] += a * f.X(j, r);
        }
    }
    for (int r = 0; r < D; r++) {  // sum_j x_j^T d k_j = (sum_j d s_j x_j)^T (q/2), and so for W_V
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += sum_ds_x[r] * (f.q(0, c) * score_scale);
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += sum_a_x[r] * d_z(0, c);
    }

    // q = x_last W_Q: W_Q gets x_last^T d q, and the last position's embedding d q W_Q^T.
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += f.X(T - 1, r) * d_q(0, c);
        grad.embeddings(tokens[T - 1], r) += dot(d_q.row(0), p.W_Q.row(r), D_K);
    }
}
// END SOLUTION

// ===========================================================================
// Adam, as PyTorch's default (15.2.3): beta1 0.9, beta2 0.999, eps 1e-8, with
// bias correction. Each parameter gets its own step size from the running
// mean (m) and mean square (v) of its gradients.

constexpr float BETA1 = 0.9f, BETA2 = 0.999f, EPS = 1e-8f;

// One Adam update of params from grads, whose running means m and v are zero
// before step 1, as torch.optim.Adam computes it: the step size and the root
// of v each divided by their own bias correction. (Exercise 15.4 is to write
// it: its handout declares it here.)
// BEGIN SOLUTION exercise 15.4: adam_step, which you write in ex4_Adam_Step.cpp (Adam's update uses it)
// STUB: void adam_step(std::vector<float>& params, const std::vector<float>& grads, std::vector<float>& m,
// STUB:                std::vector<float>& v, int step, float lr);
inline void adam_step(std::vector<float>& params, const std::vector<float>& grads, std::vector<float>& m,
                      std::vector<float>& v, int step, float lr) {
    const float correction1 = float(1.0 - power(double(BETA1), step));  // 1 - beta1^step
    const float correction2 = float(1.0 - power(double(BETA2), step));  // 1 - beta2^step
    const float step_size = lr / correction1;
    const float root_correction2 = std::sqrt(correction2);
    for (size_t i = 0; i < params.size(); i++) {
        m[i] = BETA1 * m[i] + (1.0f - BETA1) * grads[i];
        v[i] = BETA2 * v[i] + (1.0f - BETA2) * grads[i] * grads[i];
        const float denominator = std::sqrt(v[i]) / root_correction2 + EPS;
        params[i] -= step_size * m[i] / denominator;
    }
}
// END SOLUTION

// The optimiser of the training loop: one adam_step per block of parameters.
struct Adam {
    float lr;
    int step = 0;
    Params m, v;  // same shapes as the parameters, zero at the start

    Adam(float learning_rate, int vocab = VOCAB) : lr(learning_rate), m(vocab), v(vocab) {}

    void update(Params& p, const Params& grad) {
        step++;
        std::vector<Matrix*> P = p.blocks(), M = m.blocks(), S = v.blocks();
        std::vector<const Matrix*> G = grad.blocks();
        for (size_t b = 0; b < P.size(); b++) adam_step(P[b]->data, G[b]->data, M[b]->data, S[b]->data, step, lr);
    }
};

// ===========================================================================
// Training (15.2.3): full batch, the mean cross-entropy over the examples.

// The mean loss and, added into grad, its gradient for every parameter.
inline float loss_and_gradient(const Params& p, const std::vector<Example>& examples, Params& grad) {
    // BEGIN SOLUTION exercise 15.5: the training loop, which you write as train in ex5_Training_Loop.cpp
    // STUB: (void)p, (void)examples, (void)grad;
    // STUB: return 0.0f;
    const float loss_weight = 1.0f / float(examples.size());
    float total = 0.0f;
    for (const Example& e : examples) {
        Forward f = forward(p, e.tokens);
        total += cross_entropy(f.logits, e.target);
        backward(p, e.tokens, f, e.target, loss_weight, grad);
    }
    return total * loss_weight;
    // END SOLUTION
}

inline float mean_loss(const Params& p, const std::vector<Example>& examples) {
    float total = 0.0f;
    for (const Example& e : examples) total += cross_entropy(forward(p, e.tokens).logits, e.target);
    return total / float(examples.size());
}

// One update: zero_grad(), backward(), step(). Returns the loss before the step.
inline float train_step(Params& p, Adam& adam, const std::vector<Example>& examples) {
    // BEGIN SOLUTION exercise 15.5: the training loop, which you write as train in ex5_Training_Loop.cpp
    // STUB: (void)p, (void)adam, (void)examples;
    // STUB: return 0.0f;
    Params grad(p.bias.cols);
    float loss = loss_and_gradient(p, examples, grad);
    adam.update(p, grad);
    return loss;
    // END SOLUTION
}

inline int argmax(const Matrix& row) {
    int best = 0;
    for (int i = 1; i < row.cols; i++)
        if (row(0, i) > row(0, best)) best = i;
    return best;
}

// What one row of the book's table reports, measured at the current parameters.
struct Measurement {
    std::vector<float> wear_row;  // attention row at wear for the first training prefix
    float weight_on_colour;       // its weight on position 5
    float largest_other;          // its largest weight anywhere else
    float p_colour[3];            // p(red), p(blue), p(black) for that prefix
    int predicted;                // its most probable next token
    float training_loss, validation_loss;
    int validation_correct;  // of 3
};

inline Measurement measure(const Params& p, const std::vector<Example>& train, const std::vector<Example>& valid) {
    Measurement m;
    Forward f = forward(p, train[0].tokens);
    m.wear_row = f.weights.data;
    m.weight_on_colour = f.weights(0, COLOUR_POS);
    m.largest_other = 0.0f;
    for (int j = 0; j < f.weights.cols; j++)
        if (j != COLOUR_POS && f.weights(0, j) > m.largest_other) m.largest_other = f.weights(0, j);
    for (int c = 0; c < 3; c++) m.p_colour[c] = f.probs(0, token_id(COLOURS[c]));
    m.predicted = argmax(f.probs);
    m.training_loss = mean_loss(p, train);
    m.validation_loss = mean_loss(p, valid);
    m.validation_correct = 0;
    for (const Example& e : valid) m.validation_correct += argmax(forward(p, e.tokens).probs) == e.target;
    return m;
}

// What position j adds to the score (logit) of `token` (15.3): the score is
// z . W_out[:, token] + bias and z = sum_j a_j v_j, so position j adds
// a_j (v_j . W_out[:, token]): weight x value x W_out.
inline float adds_to_score(const Params& p, const Forward& f, int j, int token) {
    float value_times_out = 0.0f;
    for (int r = 0; r < D_V; r++) value_times_out += f.V(j, r) * p.W_out(r, token);
    return f.weights(0, j) * value_times_out;
}

// The book's run: Adam at lr 0.03 for 200 updates from the default start.
inline Params trained_model(uint64_t seed = DEFAULT_SEED, float lr = 0.03f, int updates = 200) {
    // BEGIN SOLUTION exercise 15.5: the training loop, which you write as train in ex5_Training_Loop.cpp
    // STUB: (void)lr, (void)updates;
    // STUB: return random_start(seed);
    Params p = random_start(seed);
    Adam adam(lr);
    std::vector<Example> train = training_examples();
    for (int u = 0; u < updates; u++) train_step(p, adam, train);
    return p;
    // END SOLUTION
}

// ===========================================================================
// The parameter file (chapter15/README.md): for each block, in the order of
// BLOCK_NAMES, a header line "name rows cols", then its rows, one line each,
// numbers with 9 significant digits (enough to give back the same float).

inline std::string format_params(const Params& p) {
    std::string text;
    char number[48];
    std::vector<const Matrix*> blocks = p.blocks();
    for (size_t b = 0; b < blocks.size(); b++) {
        const Matrix& A = *blocks[b];
        std::snprintf(number, sizeof number, "%s %d %d\n", BLOCK_NAMES[b], A.rows, A.cols);
        text += number;
        for (int i = 0; i < A.rows; i++) {
            for (int j = 0; j < A.cols; j++) {
                std::snprintf(number, sizeof number, "%s%.9g", j ? " " : "", double(A(i, j)));
                text += number;
            }
            text += "\n";
        }
    }
    return text;
}

// Splits a line at spaces and tabs.
inline std::vector<std::string> split_words(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    for (char ch : line + " ") {
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += ch;
        }
    }
    return words;
}

// Ends the program with "path:line: what was wrong", the line counted from 1.
[[noreturn]] inline void fail_at(const std::string& path, size_t at, const std::string& what) {
    fail(formatted("%s:%llu: %s", path.c_str(), (unsigned long long)(at + 1), what.c_str()));
}

// Reads what format_params wrote; any other text ends the program with one line naming the problem.
inline Params parse_params(const std::string& text, const std::string& path) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    Params p;
    size_t at = 0;  // index of the next line to read
    std::vector<Matrix*> blocks = p.blocks();
    for (size_t b = 0; b < blocks.size(); b++) {
        Matrix& A = *blocks[b];
        const char* name = BLOCK_NAMES[b];
        const std::string rows = formatted("%d", A.rows), cols = formatted("%d", A.cols);
        if (at >= lines.size())
            fail_at(path, at, formatted("the file ends where block '%s %d %d' should start", name, A.rows, A.cols));
        std::vector<std::string> header = split_words(lines[at]);
        if (header.size() != 3 || header[0] != name)
            fail_at(path, at,
                    formatted("expected the header '%s %d %d', found '%s'", name, A.rows, A.cols,
                              shown(lines[at]).c_str()));
        if (header[1] != rows || header[2] != cols)
            fail_at(path, at,
                    formatted("block %s has shape %sx%s, the model needs %dx%d", name, shown(header[1]).c_str(),
                              shown(header[2]).c_str(), A.rows, A.cols));
        at++;
        for (int i = 0; i < A.rows; i++, at++) {
            if (at >= lines.size()) fail_at(path, at, formatted("the file ends inside block %s", name));
            std::vector<std::string> numbers = split_words(lines[at]);
            if (int(numbers.size()) != A.cols)
                fail_at(
                    path, at,
                    formatted("row %d of %s has %d numbers, expected %d", i + 1, name, int(numbers.size()), A.cols));
            for (int j = 0; j < A.cols; j++) {
                char* end = nullptr;
                float x = std::strtof(numbers[j].c_str(), &end);
                if (*end != '\0' || !std::isfinite(x))
                    fail_at(path, at, formatted("'%s' in %s is not a finite number", shown(numbers[j]).c_str(), name));
                A(i, j) = x;
            }
        }
    }
    for (; at < lines.size(); at++)
        if (!split_words(lines[at]).empty()) fail_at(path, at, "unexpected text after the last block");
    return p;
}

inline Params load_params(const std::string& path) { return parse_params(read_file(path), path); }
inline void save_params(const std::string& path, const Params& p) { write_file_atomic(path, format_params(p)); }
