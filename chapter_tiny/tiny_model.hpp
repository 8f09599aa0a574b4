// chapter_tiny/tiny_model.hpp: the tiny Shakespeare transformer of "Paying attention",
// forward and backward, and its checkpoint file.
//
// What a program that uses the model needs (this API stays as it is):
//
//   TinyModel model = load_model("chapter_tiny/shakespeare.tiny");  // bad file: one line, exit 2
//   std::vector<int> ids = encode(model, "The bag");                 // unknown character: exit 2
//   Tape tape(model.V);                            // room for up to SEATS letters
//   forward(model, ids.data(), int(ids.size()), tape);
//   attention_weight(tape, block, head, t, s)      // how much letter t reads letter s (s <= t)
//   tape.block[b].weights                          // all of them: [head][t][s], each row sums to 1
//   tape.probs + t * model.V                       // the next-letter probabilities after letter t
//   model.vocabulary[id]                           // the character of an id (decode)
//   knobs(model).position                          // a named view into the flat parameter block,
//                                                  // e.g. zero it to leave the position table out
//   parse_model(bytes, model)                      // "" or what is wrong with a checkpoint in memory
//   backward(model, tape, ids, targets, scale, grads, scratch)  // training: see tiny_train.cpp
//
// Layout as in llm.c's train_gpt2.c: the layers, each a `<layer>_forward` /
// `<layer>_backward` pair with its shapes; the model (all knobs in one flat
// block, the gradients in a block of the same shape, the activations in one
// tape); then the checkpoint. T is the number of letters in the sequence.
// All arithmetic is float, in loops of fixed order, so results are the same
// with every compiler and at every optimisation level.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cli.hpp"
#include "matrix.hpp"  // softmax, Rng

constexpr int WIDTH = 32;              // W: the numbers that stand for one letter
constexpr int SEATS = 64;              // positions: the model reads at most the last 64 letters
constexpr int BLOCKS = 2;              // attention + small network, repeated twice
constexpr int HEADS = 4;               // per block, so eight heads in all
constexpr int SIZE = WIDTH / HEADS;    // each head reads its own 8 of the 32 numbers
constexpr int HIDDEN = 128;            // F: the small network's hidden size
constexpr float LEVEL_EPSILON = 1e-5f;  // keeps level from dividing by zero

// ===========================================================================
// Layers. Every matrix is row-major with shape (in, out) and is used as x·M.

// out (T,N) += in (T,K) · M (K,N). The loops run i-k-j so the innermost loop
// walks a row of M and a row of out: the compiler vectorizes it without
// changing the order of the additions. Four k's at a time keep out[j] in a
// register; each out[j] still adds k = 0, 1, 2, ... in order.
// N is a template argument where it is known, so that loop has a fixed length.
template <int N_FIXED = 0>
inline void multiply_forward(float* __restrict out, const float* __restrict in, const float* __restrict M,
                             int T, int K, int N_RUNTIME = N_FIXED) {
    const int N = N_FIXED ? N_FIXED : N_RUNTIME;
    for (int t = 0; t < T; t++) {
        float* o = out + size_t(t) * N;
        const float* x = in + size_t(t) * K;
        int k = 0;
        for (; k + 4 <= K; k += 4) {
            const float a0 = x[k], a1 = x[k + 1], a2 = x[k + 2], a3 = x[k + 3];
            const float* m0 = M + size_t(k) * N;
            const float* m1 = m0 + N;
            const float* m2 = m1 + N;
            const float* m3 = m2 + N;
            for (int j = 0; j < N; j++) {
                float sum = o[j];
                sum += a0 * m0[j];
                sum += a1 * m1[j];
                sum += a2 * m2[j];
                sum += a3 * m3[j];
                o[j] = sum;
            }
        }
        for (; k < K; k++) {
            const float a = x[k];
            const float* m = M + size_t(k) * N;
            for (int j = 0; j < N; j++) o[j] += a * m[j];
        }
    }
}

// The backward of out = in · M, for the knob: dM (K,N) += in^T (K,T) · dout (T,N),
// adding t = 0, 1, 2, ... in order. (The backward for the input is
// din = dout · M^T: multiply_forward with M transposed.)
template <int N_FIXED = 0>
inline void multiply_backward(float* __restrict dM, const float* __restrict in, const float* __restrict dout,
                              int T, int K, int N_RUNTIME = N_FIXED) {
    const int N = N_FIXED ? N_FIXED : N_RUNTIME;
    int t = 0;
    for (; t + 4 <= T; t += 4) {
        const float* x0 = in + size_t(t) * K;
        const float* x1 = x0 + K;
        const float* x2 = x1 + K;
        const float* x3 = x2 + K;
        const float* d0 = dout + size_t(t) * N;
        const float* d1 = d0 + N;
        const float* d2 = d1 + N;
        const float* d3 = d2 + N;
        for (int k = 0; k < K; k++) {
            const float a0 = x0[k], a1 = x1[k], a2 = x2[k], a3 = x3[k];
            float* g = dM + size_t(k) * N;
            for (int j = 0; j < N; j++) {
                float sum = g[j];
                sum += a0 * d0[j];
                sum += a1 * d1[j];
                sum += a2 * d2[j];
                sum += a3 * d3[j];
                g[j] = sum;
            }
        }
    }
    for (; t < T; t++) {
        const float* x = in + size_t(t) * K;
        const float* d = dout + size_t(t) * N;
        for (int k = 0; k < K; k++) {
            float* g = dM + size_t(k) * N;
            for (int j = 0; j < N; j++) g[j] += x[k] * d[j];
        }
    }
}

// MT (N,K) = M (K,N) transposed, so the input's backward is one more multiply_forward.
inline void transpose_into(float* MT, const float* M, int K, int N) {
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) MT[size_t(j) * K + k] = M[size_t(k) * N + j];
}

// notebooks (T,W) = token table[id] + position table[seat]: each letter's first notebook.
inline void embed_forward(float* notebooks, const int* ids, const float* token, const float* position, int T) {
    for (int t = 0; t < T; t++)
        for (int i = 0; i < WIDTH; i++)
            notebooks[t * WIDTH + i] = token[ids[t] * WIDTH + i] + position[t * WIDTH + i];
}

inline void embed_backward(float* dtoken, float* dposition, const float* dnotebooks, const int* ids, int T) {
    for (int t = 0; t < T; t++)
        for (int i = 0; i < WIDTH; i++) {
            dtoken[ids[t] * WIDTH + i] += dnotebooks[t * WIDTH + i];
            dposition[t * WIDTH + i] += dnotebooks[t * WIDTH + i];
        }
}

// level (layer normalisation): each row to mean 0 and spread 1, then times gain plus bias.
// in, out (T,W); mean, rstd (T) are kept for the backward (rstd = 1 / standard deviation).
inline void level_forward(float* out, float* mean, float* rstd, const float* in, const float* gain,
                          const float* bias, int T) {
    for (int t = 0; t < T; t++) {
        const float* x = in + t * WIDTH;
        float sum = 0.0f;
        for (int i = 0; i < WIDTH; i++) sum += x[i];
        const float m = sum / WIDTH;
        float spread = 0.0f;
        for (int i = 0; i < WIDTH; i++) spread += (x[i] - m) * (x[i] - m);
        const float r = 1.0f / std::sqrt(spread / WIDTH + LEVEL_EPSILON);
        for (int i = 0; i < WIDTH; i++) out[t * WIDTH + i] = (x[i] - m) * r * gain[i] + bias[i];
        mean[t] = m;
        rstd[t] = r;
    }
}

// din (T,W) += what the loss says about level's input; dgain, dbias (W) += theirs.
inline void level_backward(float* din, float* dgain, float* dbias, const float* dout, const float* in,
                           const float* mean, const float* rstd, const float* gain, int T) {
    for (int t = 0; t < T; t++) {
        const float* x = in + t * WIDTH;
        const float* d = dout + t * WIDTH;
        // The mean of dnorm and of dnorm * norm: the two ways each input also moves the others.
        float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
        for (int i = 0; i < WIDTH; i++) {
            const float norm = (x[i] - mean[t]) * rstd[t];
            const float dnorm = d[i] * gain[i];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean /= WIDTH;
        dnorm_norm_mean /= WIDTH;
        for (int i = 0; i < WIDTH; i++) {
            const float norm = (x[i] - mean[t]) * rstd[t];
            const float dnorm = d[i] * gain[i];
            dgain[i] += d[i] * norm;
            dbias[i] += d[i];
            din[t * WIDTH + i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[t];
        }
    }
}

// attend, as the chapter's code: lookups (T,3W) holds each letter's query, key
// and value side by side; head h uses its SIZE numbers of each. For each letter
// t and head, score every s <= t (the causal mask is where the loop stops),
// softmax, and add up the values. found (T,W); weights (HEADS,T,T), 0 above the diagonal.
inline void attend_forward(float* found, float* weights, const float* lookups, int T) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    for (int t = 0; t < T; t++) {
        for (int h = 0; h < HEADS; h++) {
            const float* query = lookups + t * 3 * WIDTH + h * SIZE;
            float* row = weights + (h * T + t) * T;
            float biggest = -INFINITY;
            for (int s = 0; s <= t; s++) {
                const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                float dot = 0.0f;
                for (int i = 0; i < SIZE; i++) dot += query[i] * key[i];
                row[s] = dot * scale;
                if (row[s] > biggest) biggest = row[s];
            }
            float total = 0.0f;
            for (int s = 0; s <= t; s++) {
                row[s] = exp_f(row[s] - biggest);
                total += row[s];
            }
            float mix[SIZE] = {};  // the values, each times its weight (kept local: registers)
            for (int s = 0; s <= t; s++) {
                row[s] /= total;
                const float* value = lookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;
                for (int i = 0; i < SIZE; i++) mix[i] += row[s] * value[i];
            }
            for (int i = 0; i < SIZE; i++) found[t * WIDTH + h * SIZE + i] = mix[i];
            for (int s = t + 1; s < T; s++) row[s] = 0.0f;  // no peeking: nothing above the diagonal
        }
    }
}

// dlookups (T,3W) += what the loss says about each query, key and value, from dfound (T,W).
inline void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                            int T) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    float dweight[SEATS];
    for (int t = 0; t < T; t++) {
        for (int h = 0; h < HEADS; h++) {
            const float* row = weights + (h * T + t) * T;
            float dout[SIZE];  // d found for this letter and head (a local copy: registers)
            for (int i = 0; i < SIZE; i++) dout[i] = dfound[t * WIDTH + h * SIZE + i];
            // found = sum_s weight[s] * value[s]
            for (int s = 0; s <= t; s++) {
                const float* value = lookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;
                float* dvalue = dlookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;
                for (int i = 0; i < SIZE; i++) dvalue[i] += row[s] * dout[i];
                float dot = 0.0f;
                for (int i = 0; i < SIZE; i++) dot += dout[i] * value[i];
                dweight[s] = dot;
            }
            // softmax: dscore[s] = weight[s] * (dweight[s] - sum_s' weight[s'] dweight[s'])
            float mixed = 0.0f;
            for (int s = 0; s <= t; s++) mixed += row[s] * dweight[s];
            float query[SIZE], dq[SIZE];  // the query and its gradient, kept local (registers)
            float* dquery = dlookups + t * 3 * WIDTH + h * SIZE;
            for (int i = 0; i < SIZE; i++) {
                query[i] = lookups[t * 3 * WIDTH + h * SIZE + i];
                dq[i] = dquery[i];
            }
            for (int s = 0; s <= t; s++) {
                const float dscore = row[s] * (dweight[s] - mixed) * scale;
                const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                float* dkey = dlookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                for (int i = 0; i < SIZE; i++) dq[i] += dscore * key[i];
                for (int i = 0; i < SIZE; i++) dkey[i] += dscore * query[i];
            }
            for (int i = 0; i < SIZE; i++) dquery[i] = dq[i];
        }
    }
}

// GELU in its tanh form: fired = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
// Since (1 + tanh(u)) / 2 = 1 / (1 + exp(-2u)), we compute it as x / (1 + exp(-2u)):
// the same function, and exp is several times faster than tanh. hidden, fired (T,F).
constexpr float GELU_SCALE = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float GELU_CUBIC = 0.044715f;

inline float gelu_share(float x) {  // (1 + tanh(u)) / 2, between 0 and 1
    return 1.0f / (1.0f + exp_f(-2.0f * GELU_SCALE * (x + GELU_CUBIC * x * x * x)));
}

inline void gelu_forward(float* fired, const float* hidden, int n) {
    for (int i = 0; i < n; i++) fired[i] = hidden[i] * gelu_share(hidden[i]);
}

// d fired / d x = share + x share (1 - share) 2 du/dx.
inline void gelu_backward(float* dhidden, const float* dfired, const float* hidden, int n) {
    for (int i = 0; i < n; i++) {
        const float x = hidden[i];
        const float share = gelu_share(x);
        const float du = 2.0f * GELU_SCALE * (1.0f + 3.0f * GELU_CUBIC * x * x);
        dhidden[i] = dfired[i] * (share + x * share * (1.0f - share) * du);
    }
}

// ===========================================================================
// The model: knobs, tape, forward, backward.

// Hands out consecutive views of one block of floats: the knobs, the tape, the scratch.
struct Carve {
    float* next;
    float* take(size_t n) {
        float* view = next;
        next += n;
        return view;
    }
};

struct BlockKnobs {
    float* level1_gain;  // (W)
    float* level1_bias;  // (W)
    float* lookup;       // (W,3W): queries in columns [0,W), keys in [W,2W), values in [2W,3W)
    float* write;        // (W,W): what attention found, written back into the notebooks
    float* level2_gain;  // (W)
    float* level2_bias;  // (W)
    float* hidden;       // (W,F)
    float* out;          // (F,W)
};

// Named views into one flat block of floats, in the checkpoint's order.
struct Knobs {
    float* token;     // (V,W)
    float* position;  // (SEATS,W)
    BlockKnobs block[BLOCKS];
    float* final_gain;  // (W)
    float* final_bias;  // (W)
    float* output;      // (W,V): the logits
};

inline size_t knob_count(int V) {
    const size_t per_block = 2 * WIDTH + WIDTH * 3 * WIDTH + WIDTH * WIDTH + 2 * WIDTH + 2 * WIDTH * HIDDEN;
    return size_t(V) * WIDTH + SEATS * WIDTH + BLOCKS * per_block + 2 * WIDTH + WIDTH * size_t(V);
}

// The same views work for the knobs and for their gradients (a block of the same shape).
inline Knobs knob_views(float* base, int V) {
    Knobs k;
    Carve carve{base};
    k.token = carve.take(size_t(V) * WIDTH);
    k.position = carve.take(SEATS * WIDTH);
    for (BlockKnobs& b : k.block) {
        b.level1_gain = carve.take(WIDTH);
        b.level1_bias = carve.take(WIDTH);
        b.lookup = carve.take(WIDTH * 3 * WIDTH);
        b.write = carve.take(WIDTH * WIDTH);
        b.level2_gain = carve.take(WIDTH);
        b.level2_bias = carve.take(WIDTH);
        b.hidden = carve.take(WIDTH * HIDDEN);
        b.out = carve.take(HIDDEN * WIDTH);
    }
    k.final_gain = carve.take(WIDTH);
    k.final_bias = carve.take(WIDTH);
    k.output = carve.take(WIDTH * size_t(V));
    return k;
}

struct TinyModel {
    std::string vocabulary;    // id -> character, sorted
    int V = 0;                 // vocabulary size
    std::vector<float> knobs;  // every parameter, in one block of knob_count(V) floats
};

inline Knobs knobs(TinyModel& model) { return knob_views(model.knobs.data(), model.V); }
inline const Knobs knobs(const TinyModel& model) {
    return knob_views(const_cast<float*>(model.knobs.data()), model.V);
}

// A fresh model: normal knobs scaled by 1/sqrt(inputs), the writes into the
// notebooks smaller still (they add up over the blocks), levels at gain 1, bias 0.
inline TinyModel new_model(const std::string& vocabulary, Rng& rng) {
    TinyModel model;
    model.vocabulary = vocabulary;
    model.V = int(vocabulary.size());
    model.knobs.assign(knob_count(model.V), 0.0f);
    Knobs k = knobs(model);
    auto fill = [&rng](float* x, size_t n, float std_dev) {
        for (size_t i = 0; i < n; i++) x[i] = rng.normal() * std_dev;
    };
    const float narrow = 1.0f / std::sqrt(float(WIDTH)), wide = 1.0f / std::sqrt(float(HIDDEN));
    const float residual = 1.0f / std::sqrt(2.0f * BLOCKS);
    fill(k.token, size_t(model.V) * WIDTH, 0.1f);
    fill(k.position, SEATS * WIDTH, 0.1f);
    for (BlockKnobs& b : k.block) {
        for (int i = 0; i < WIDTH; i++) b.level1_gain[i] = b.level2_gain[i] = 1.0f;
        fill(b.lookup, WIDTH * 3 * WIDTH, narrow);
        fill(b.write, WIDTH * WIDTH, narrow * residual);
        fill(b.hidden, WIDTH * HIDDEN, narrow);
        fill(b.out, HIDDEN * WIDTH, wide * residual);
    }
    for (int i = 0; i < WIDTH; i++) k.final_gain[i] = 1.0f;
    fill(k.output, WIDTH * size_t(model.V), 0.02f);
    return model;
}

// The tape: what one sequence's forward pass keeps for the backward pass.
// Room for SEATS letters; the strides are T, the sequence's own length.
struct LevelTape {
    float* out;   // (T,W)
    float* mean;  // (T)
    float* rstd;  // (T)
};

struct BlockTape {
    float* notebooks;  // (T,W) what the block reads (the previous block's out)
    LevelTape first;   // level of the notebooks
    float* lookups;    // (T,3W) queries, keys, values
    float* weights;    // (HEADS,T,T) attention weights [head][t][s]
    float* found;      // (T,W) what each letter's heads read
    float* middle;     // (T,W) notebooks + found · write
    LevelTape second;  // level of the middle
    float* hidden;     // (T,F)
    float* fired;      // (T,F) GELU of hidden
    float* out;        // (T,W) middle + fired · out: the next block's notebooks
};

struct Tape {
    int V, T = 0;
    std::vector<float> floats;  // every activation, in one block
    BlockTape block[BLOCKS];
    LevelTape last;  // the final level
    float* logits;   // (T,V)
    float* probs;    // (T,V) softmax of the logits: the next letter's probabilities

    explicit Tape(int vocabulary_size) : V(vocabulary_size) {
        const size_t level = SEATS * WIDTH + 2 * SEATS;
        const size_t per_block = SEATS * WIDTH * 4 + 2 * level + SEATS * 3 * WIDTH + HEADS * SEATS * SEATS +
                                 2 * SEATS * HIDDEN;
        floats.assign(SEATS * WIDTH + BLOCKS * per_block + level + 2 * size_t(SEATS) * V, 0.0f);
        Carve carve{floats.data()};
        auto take_level = [&carve]() {
            return LevelTape{carve.take(SEATS * WIDTH), carve.take(SEATS), carve.take(SEATS)};
        };
        float* notebooks = carve.take(SEATS * WIDTH);
        for (BlockTape& b : block) {
            b.notebooks = notebooks;
            b.first = take_level();
            b.lookups = carve.take(SEATS * 3 * WIDTH);
            b.weights = carve.take(HEADS * SEATS * SEATS);
            b.found = carve.take(SEATS * WIDTH);
            b.middle = carve.take(SEATS * WIDTH);
            b.second = take_level();
            b.hidden = carve.take(SEATS * HIDDEN);
            b.fired = carve.take(SEATS * HIDDEN);
            b.out = notebooks = carve.take(SEATS * WIDTH);
        }
        last = take_level();
        logits = carve.take(SEATS * size_t(V));
        probs = carve.take(SEATS * size_t(V));
    }
    Tape(const Tape&) = delete;  // the views point into this tape's own floats
    Tape& operator=(const Tape&) = delete;
};

// How much letter t reads letter s in a block's head (0 when s > t).
inline float attention_weight(const Tape& tape, int block, int head, int t, int s) {
    return tape.block[block].weights[(head * tape.T + t) * tape.T + s];
}

// One block, as the chapter's `block` function.
inline void block_forward(const BlockKnobs& k, BlockTape& b, int T) {
    level_forward(b.first.out, b.first.mean, b.first.rstd, b.notebooks, k.level1_gain, k.level1_bias, T);
    std::memset(b.lookups, 0, sizeof(float) * T * 3 * WIDTH);
    multiply_forward<3 * WIDTH>(b.lookups, b.first.out, k.lookup, T, WIDTH);
    attend_forward(b.found, b.weights, b.lookups, T);
    std::memcpy(b.middle, b.notebooks, sizeof(float) * T * WIDTH);  // keep what was already there
    multiply_forward<WIDTH>(b.middle, b.found, k.write, T, WIDTH);
    level_forward(b.second.out, b.second.mean, b.second.rstd, b.middle, k.level2_gain, k.level2_bias, T);
    std::memset(b.hidden, 0, sizeof(float) * T * HIDDEN);
    multiply_forward<HIDDEN>(b.hidden, b.second.out, k.hidden, T, WIDTH);
    gelu_forward(b.fired, b.hidden, T * HIDDEN);
    std::memcpy(b.out, b.middle, sizeof(float) * T * WIDTH);
    multiply_forward<WIDTH>(b.out, b.fired, k.out, T, HIDDEN);
}

// The whole model over ids[0..T), 1 <= T <= SEATS: fills the tape, ending with probs.
inline void forward(const TinyModel& model, const int* ids, int T, Tape& tape) {
    const Knobs k = knobs(model);
    const int V = model.V;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward(k.block[b], tape.block[b], T);
    level_forward(tape.last.out, tape.last.mean, tape.last.rstd, tape.block[BLOCKS - 1].out, k.final_gain,
                  k.final_bias, T);
    std::memset(tape.logits, 0, sizeof(float) * T * V);
    multiply_forward(tape.logits, tape.last.out, k.output, T, WIDTH, V);
    for (int t = 0; t < T; t++) {
        float* p = tape.probs + t * V;
        std::memcpy(p, tape.logits + t * V, sizeof(float) * V);
        softmax(p, V);
    }
}

// The cross-entropy of the letter after position t: -log p(target), from the
// logits (log-sum-exp) rather than log(probs), so a tiny p stays exact.
inline float next_letter_loss(const Tape& tape, int t, int target) {
    const float* l = tape.logits + t * tape.V;
    float biggest = l[0];
    for (int v = 1; v < tape.V; v++)
        if (l[v] > biggest) biggest = l[v];
    float sum = 0.0f;
    for (int v = 0; v < tape.V; v++) sum += exp_f(l[v] - biggest);
    return log_f(sum) - (l[target] - biggest);
}

// The sum over every position of the next letter's cross-entropy; targets[t] follows ids[t].
inline float loss_sum(const Tape& tape, const int* targets) {
    float total = 0.0f;
    for (int t = 0; t < tape.T; t++) total += next_letter_loss(tape, t, targets[t]);
    return total;
}

// Room for the gradients of the activations during one backward pass.
struct Scratch {
    std::vector<float> floats;
    float *dnotebooks, *dmiddle, *dfound, *dlookups, *dlevel, *dhidden, *dfired, *dlogits, *transposed;
    explicit Scratch(int V) {
        const size_t biggest_matrix = std::max(size_t(WIDTH) * HIDDEN, size_t(WIDTH) * V) + 3 * WIDTH * WIDTH;
        floats.assign(4 * SEATS * WIDTH + SEATS * 3 * WIDTH + 2 * SEATS * HIDDEN + SEATS * size_t(V) + biggest_matrix,
                      0.0f);
        Carve carve{floats.data()};
        dnotebooks = carve.take(SEATS * WIDTH);
        dmiddle = carve.take(SEATS * WIDTH);
        dfound = carve.take(SEATS * WIDTH);
        dlevel = carve.take(SEATS * WIDTH);
        dlookups = carve.take(SEATS * 3 * WIDTH);
        dhidden = carve.take(SEATS * HIDDEN);
        dfired = carve.take(SEATS * HIDDEN);
        dlogits = carve.take(SEATS * size_t(V));
        transposed = carve.next;
    }
};

// A block backward: d (T,W) holds d loss / d block's out on entry and
// d loss / d block's notebooks on return.
inline void block_backward(const BlockKnobs& k, BlockKnobs& g, const BlockTape& b, float* d, Scratch& s, int T) {
    // out = middle + fired · out
    std::memcpy(s.dmiddle, d, sizeof(float) * T * WIDTH);
    multiply_backward<WIDTH>(g.out, b.fired, d, T, HIDDEN);
    transpose_into(s.transposed, k.out, HIDDEN, WIDTH);  // (W,F)
    std::memset(s.dfired, 0, sizeof(float) * T * HIDDEN);
    multiply_forward<HIDDEN>(s.dfired, d, s.transposed, T, WIDTH);
    // fired = gelu(hidden); hidden = second · hidden
    gelu_backward(s.dhidden, s.dfired, b.hidden, T * HIDDEN);
    multiply_backward<HIDDEN>(g.hidden, b.second.out, s.dhidden, T, WIDTH);
    transpose_into(s.transposed, k.hidden, WIDTH, HIDDEN);  // (F,W)
    std::memset(s.dlevel, 0, sizeof(float) * T * WIDTH);
    multiply_forward<WIDTH>(s.dlevel, s.dhidden, s.transposed, T, HIDDEN);
    // second = level(middle)
    level_backward(s.dmiddle, g.level2_gain, g.level2_bias, s.dlevel, b.middle, b.second.mean, b.second.rstd,
                   k.level2_gain, T);
    // middle = notebooks + found · write
    std::memcpy(d, s.dmiddle, sizeof(float) * T * WIDTH);
    multiply_backward<WIDTH>(g.write, b.found, s.dmiddle, T, WIDTH);
    transpose_into(s.transposed, k.write, WIDTH, WIDTH);
    std::memset(s.dfound, 0, sizeof(float) * T * WIDTH);
    multiply_forward<WIDTH>(s.dfound, s.dmiddle, s.transposed, T, WIDTH);
    // found, weights = attend(lookups)
    std::memset(s.dlookups, 0, sizeof(float) * T * 3 * WIDTH);
    attend_backward(s.dlookups, s.dfound, b.weights, b.lookups, T);
    // lookups = first · lookup
    multiply_backward<3 * WIDTH>(g.lookup, b.first.out, s.dlookups, T, WIDTH);
    transpose_into(s.transposed, k.lookup, WIDTH, 3 * WIDTH);  // (3W,W)
    std::memset(s.dlevel, 0, sizeof(float) * T * WIDTH);
    multiply_forward<WIDTH>(s.dlevel, s.dlookups, s.transposed, T, 3 * WIDTH);
    // first = level(notebooks)
    level_backward(d, g.level1_gain, g.level1_bias, s.dlevel, b.notebooks, b.first.mean, b.first.rstd,
                   k.level1_gain, T);
}

// Adds to grads (a block shaped like the knobs) scale times the gradient of
// loss_sum(tape, targets), for the sequence the tape's forward pass read.
inline void backward(const TinyModel& model, const Tape& tape, const int* ids, const int* targets, float scale,
                     float* grads, Scratch& s) {
    const Knobs k = knobs(model);
    Knobs g = knob_views(grads, model.V);
    const int V = model.V, T = tape.T;
    // d loss / d logits = probs - 1 at the target
    for (int t = 0; t < T; t++)
        for (int v = 0; v < V; v++)
            s.dlogits[t * V + v] = (tape.probs[t * V + v] - (v == targets[t] ? 1.0f : 0.0f)) * scale;
    multiply_backward(g.output, tape.last.out, s.dlogits, T, WIDTH, V);
    transpose_into(s.transposed, k.output, WIDTH, V);  // (V,W)
    std::memset(s.dlevel, 0, sizeof(float) * T * WIDTH);
    multiply_forward<WIDTH>(s.dlevel, s.dlogits, s.transposed, T, V);
    std::memset(s.dnotebooks, 0, sizeof(float) * T * WIDTH);
    level_backward(s.dnotebooks, g.final_gain, g.final_bias, s.dlevel, tape.block[BLOCKS - 1].out, tape.last.mean,
                   tape.last.rstd, k.final_gain, T);
    for (int b = BLOCKS - 1; b >= 0; b--) block_backward(k.block[b], g.block[b], tape.block[b], s.dnotebooks, s, T);
    embed_backward(g.token, g.position, s.dnotebooks, ids, T);
}

// ===========================================================================
// Vocabulary

// The characters of text as ids; a character the model does not know ends the program.
inline std::vector<int> encode(const TinyModel& model, const std::string& text) {
    std::vector<int> ids;
    for (size_t i = 0; i < text.size(); i++) {
        size_t id = model.vocabulary.find(text[i]);
        if (id == std::string::npos) {
            unsigned char c = static_cast<unsigned char>(text[i]);
            char name[64];
            if (c >= 32 && c < 127)
                std::snprintf(name, sizeof name, "'%c'", c);
            else
                std::snprintf(name, sizeof name, "byte 0x%02X", c);
            fail(std::string("character ") + name + " at position " + std::to_string(i) +
                 " is not in the model's vocabulary");
        }
        ids.push_back(int(id));
    }
    return ids;
}

inline std::string decode(const TinyModel& model, const std::vector<int>& ids) {
    std::string text;
    for (int id : ids) text += model.vocabulary[id];
    return text;
}

// ===========================================================================
// Checkpoint: "TINY", uint32 version, V, W, seats, blocks, heads, F (little-endian),
// V bytes of vocabulary, then every knob as float32 little-endian, in the
// order of knob_views. chapter_tiny/README.md describes it.

constexpr uint32_t CHECKPOINT_VERSION = 1;
constexpr size_t CHECKPOINT_HEADER = 4 + 7 * 4;

inline void put_u32(std::string& bytes, uint32_t v) {
    for (int i = 0; i < 4; i++) bytes += char((v >> (8 * i)) & 0xFF);
}

inline uint32_t get_u32(const std::string& bytes, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= uint32_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

inline std::string model_bytes(const TinyModel& model) {
    std::string bytes = "TINY";
    for (uint32_t v : {CHECKPOINT_VERSION, uint32_t(model.V), uint32_t(WIDTH), uint32_t(SEATS), uint32_t(BLOCKS),
                       uint32_t(HEADS), uint32_t(HIDDEN)})
        put_u32(bytes, v);
    bytes += model.vocabulary;
    for (float x : model.knobs) {
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        put_u32(bytes, bits);
    }
    return bytes;
}

// Reads a checkpoint held in bytes into model. Returns "" when it is good,
// otherwise what is wrong with it, as words to follow the file's name.
inline std::string parse_model(const std::string& bytes, TinyModel& model) {
    if (bytes.size() < 4 || bytes.compare(0, 4, "TINY") != 0)
        return "is not a tiny model checkpoint (it does not start with the 4 bytes TINY)";
    if (bytes.size() < CHECKPOINT_HEADER)
        return "is truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
               std::to_string(CHECKPOINT_HEADER) + "-byte header";
    const uint32_t version = get_u32(bytes, 4);
    if (version != CHECKPOINT_VERSION)
        return "has checkpoint version " + std::to_string(version) + ", but this program reads version " +
               std::to_string(CHECKPOINT_VERSION);
    const uint32_t V = get_u32(bytes, 8);
    const char* names[] = {"width", "seats", "blocks", "heads", "hidden size"};
    const int want[] = {WIDTH, SEATS, BLOCKS, HEADS, HIDDEN};
    for (int i = 0; i < 5; i++) {
        uint32_t got = get_u32(bytes, 12 + 4 * i);
        if (got != uint32_t(want[i]))
            return "says its " + std::string(names[i]) + " is " + std::to_string(got) + ", but this program's model has " +
                   std::to_string(want[i]);
    }
    if (V < 2 || V > 256) return "has vocabulary size " + std::to_string(V) + " (it must be from 2 to 256)";
    const size_t expected = CHECKPOINT_HEADER + V + 4 * knob_count(int(V));
    if (bytes.size() < expected)
        return "is truncated: " + std::to_string(bytes.size()) + " bytes, but its sizes need " + std::to_string(expected);
    if (bytes.size() > expected)
        return "has " + std::to_string(bytes.size()) + " bytes, but its sizes need " + std::to_string(expected) + " (" +
               std::to_string(bytes.size() - expected) + " bytes too many)";
    std::string vocabulary = bytes.substr(CHECKPOINT_HEADER, V);
    for (uint32_t i = 1; i < V; i++)
        if (static_cast<unsigned char>(vocabulary[i - 1]) >= static_cast<unsigned char>(vocabulary[i]))
            return "has a vocabulary that is not sorted and distinct at id " + std::to_string(i);
    std::vector<float> values(knob_count(int(V)));
    for (size_t i = 0; i < values.size(); i++) {
        uint32_t bits = get_u32(bytes, CHECKPOINT_HEADER + V + 4 * i);
        std::memcpy(&values[i], &bits, 4);
        if (!std::isfinite(values[i])) return "has knob " + std::to_string(i) + " that is not a finite number";
    }
    model.vocabulary = vocabulary;
    model.V = int(V);
    model.knobs = std::move(values);
    return "";
}

inline TinyModel load_model(const std::string& path) {
    TinyModel model;
    std::string problem = parse_model(read_file(path), model);
    if (!problem.empty()) fail("'" + path + "' " + problem);
    return model;
}

inline void save_model(const std::string& path, const TinyModel& model) { write_file_atomic(path, model_bytes(model)); }
