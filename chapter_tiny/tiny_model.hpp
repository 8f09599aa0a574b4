// chapter_tiny/tiny_model.hpp: the tiny Shakespeare transformer of "Paying attention",
// forward and backward in plain loops: the chapter's code.
//
// What a program that uses the model needs (load_model, encode and parse_model
// are tiny_checkpoint.hpp's, which includes this header):
//
//   TinyModel model = load_model("chapter_tiny/shakespeare.tiny");  // bad file: one line, exit 2
//   std::vector<int> ids = encode(model, "The bag");                 // unknown character: exit 2
//   Tape tape(model.V);                            // room for up to SEATS letters
//   forward(model, ids.data(), int(ids.size()), tape);
//   attention_weight(tape, block, head, t, s)      // how much letter t reads letter s (s <= t)
//   tape.block[b].weights                          // all of them: [head][t][s], (HEADS,T,T)
//   tape.probs + t * model.V                       // the next-letter probabilities after letter t
//   model.vocabulary[id]                           // the character of an id (decode)
//   knobs(model).position                          // a named view into the flat block of knobs,
//                                                  // e.g. zero it to leave the position table out
//   parse_model(bytes, model)                      // "" or what is wrong with a checkpoint in memory
//   backward(model, tape, ids, targets, scale, grads, scratch)  // the gradient of the loss
//   adamw_step(model, grads, clip, adam, lr, decay, step, 0, model.knobs.size())  // one training step
//
// In the order of llm.c's train_gpt2.c: the layers, each a `<layer>_forward` /
// `<layer>_backward` pair with its shapes; the model (all knobs in one flat
// block, the gradients in a block of the same shape, the activations in one
// tape); the optimiser, AdamW; the sampler. Its matrices are not laid out as
// llm.c's, (out, in): each is (in, out), used as x·M, as the chapter's code
// multiplies (README.md, "Conventions"). The checkpoint file and the
// vocabulary are tiny_checkpoint.hpp's. T is the number of letters read.
// All arithmetic is float, in loops of fixed order, so results are the same
// with every compiler and at every optimisation level. The trainer runs faster
// versions of these loops (tiny_model_fast.hpp), which give the same bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "maths.hpp"   // exp_f, log_f, power
#include "matrix.hpp"  // softmax, Rng

constexpr int WIDTH = 32;               // W: the numbers that stand for one letter
constexpr int SEATS = 64;               // positions: the model reads at most the last 64 letters
constexpr int BLOCKS = 2;               // attention + small network, repeated twice
constexpr int HEADS = 4;                // per block, so eight heads in all
constexpr int SIZE = WIDTH / HEADS;     // each head reads its own 8 of the 32 numbers
constexpr int HIDDEN = 128;             // F: the small network's hidden size
constexpr float LEVEL_EPSILON = 1e-5f;  // keeps level from dividing by zero
constexpr int MAX_VOCABULARY = 256;     // V: a checkpoint's letters are distinct bytes

// The chapter's words, the usual terms, and llm.c's names:
//   chapter's word  usual term                         llm.c
//   knobs           parameters                         params
//   token, position token and position embeddings      wte, wpe
//   notebooks       residual stream                    residual (middle: residual2)
//   level           layer normalisation                layernorm (ln1, ln2, lnf)
//   lookup(s)       query/key/value projection (qkv)   qkvw / qkv
//   weights         attention weights (softmax)        att
//   found           attention output                   atty
//   write           attention output projection        attprojw
//   network_hidden  MLP's first layer (weight)         fcw
//   hidden          MLP's first layer (activation)     fch
//   fired           GELU of hidden (activation)        fch_gelu
//   network_write   MLP's projection back (weight)     fcprojw
//   out             a block's output: next notebooks   residual3
//   seats           context length                     maxT
//   tape            saved activations                  acts
//   scratch         activations' gradients             grads_acts

// ===========================================================================
// Layers. Every matrix is row-major with shape (in, out) and is used as x·M.

// notebooks (T,W) = token table[id] + position table[seat]: each letter's first notebook.
inline void embed_forward(float* notebooks, const int* ids, const float* token, const float* position, int T) {
    for (int t = 0; t < T; t++)
        for (int i = 0; i < WIDTH; i++) notebooks[t * WIDTH + i] = token[ids[t] * WIDTH + i] + position[t * WIDTH + i];
}

// dtoken (V,W), dposition (SEATS,W) += what dnotebooks (T,W) says about them.
inline void embed_backward(float* dtoken, float* dposition, const float* dnotebooks, const int* ids, int T) {
    for (int t = 0; t < T; t++)
        for (int i = 0; i < WIDTH; i++) {
            dtoken[ids[t] * WIDTH + i] += dnotebooks[t * WIDTH + i];
            dposition[t * WIDTH + i] += dnotebooks[t * WIDTH + i];
        }
}

// out (T,N) += in (T,K) · M (K,N): each sum adds k = 0, 1, 2, ... in order.
inline void multiply_forward(float* out, const float* in, const float* M, int T, int K, int N) {
    for (int t = 0; t < T; t++)
        for (int j = 0; j < N; j++) {
            float sum = out[size_t(t) * N + j];
            for (int k = 0; k < K; k++) sum += in[size_t(t) * K + k] * M[size_t(k) * N + j];
            out[size_t(t) * N + j] = sum;
        }
}

// The backward of out += in · M: din (T,K) += dout (T,N) · M^T, adding j = 0, 1, ...;
// dM (K,N) += in^T · dout, adding t = 0, 1, ... in order.
inline void multiply_backward(float* din, float* dM, const float* dout, const float* in, const float* M, int T, int K,
                              int N) {
    for (int t = 0; t < T; t++)
        for (int k = 0; k < K; k++) {
            float sum = din[size_t(t) * K + k];
            for (int j = 0; j < N; j++) sum += dout[size_t(t) * N + j] * M[size_t(k) * N + j];
            din[size_t(t) * K + k] = sum;
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            float sum = dM[size_t(k) * N + j];
            for (int t = 0; t < T; t++) sum += in[size_t(t) * K + k] * dout[size_t(t) * N + j];
            dM[size_t(k) * N + j] = sum;
        }
}

// level (layer normalisation): each row to mean 0 and spread 1, then times gain plus bias.
// in, out (T,W); mean, rstd (T) are kept for the backward (rstd = 1 / standard deviation).
inline void level_forward(float* out, float* mean, float* rstd, const float* in, const float* gain, const float* bias,
                          int T) {
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
// BEGIN SOLUTION exercise tiny.3: level's backward pass, which you write in ex3_Level_Backward.cpp
// STUB: void level_backward(float* din, float* dgain, float* dbias, const float* dout, const float* in,
// STUB:                     const float* mean, const float* rstd, const float* gain, int T);
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
// END SOLUTION

// attend, as the chapter's code: lookups (T,3W) holds each letter's query, key
// and value side by side; head h uses its SIZE numbers of each. For each letter
// t and head, score every s <= t (the causal mask is where the loop stops),
// softmax, and add up the values. found (T,W); weights (HEADS,T,T), [head][t][s],
// 0 above the diagonal.
// BEGIN SOLUTION exercise tiny.1: attend_forward, which you write in ex1_Attend.cpp
// STUB: void attend_forward(float* found, float* weights, const float* lookups, int T);
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
            float mix[SIZE] = {};  // the values, each times its weight
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
// END SOLUTION

// attend for one new letter, from a key/value cache (tiny_5_Kept_Keys): row T-1 of
// attend_forward. found (W) for the newest of T letters; query (W) its query, the
// 4 heads' side by side; keys, values (T,W) the kept ones of letters 0 .. T-1, its
// own last. The same float operations in the same order as attend_forward's row.
// BEGIN SOLUTION exercise tiny.5: attend_cached, which you write in ex5_Kept_Keys.cpp
// STUB: void attend_cached(float* found, const float* query, const float* keys, const float* values, int T);
inline void attend_cached(float* found, const float* query, const float* keys, const float* values, int T) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    for (int h = 0; h < HEADS; h++) {
        float weights[SEATS];  // (T) this head's scores, then its weights
        for (int s = 0; s < T; s++) {
            const float* key = keys + s * WIDTH + h * SIZE;
            float dot = 0.0f;
            for (int i = 0; i < SIZE; i++) dot += query[h * SIZE + i] * key[i];
            weights[s] = dot * scale;
        }
        float biggest = weights[0];  // subtracted before exp, so that no score overflows it
        for (int s = 1; s < T; s++) biggest = std::max(biggest, weights[s]);
        float total = 0.0f;
        for (int s = 0; s < T; s++) {
            weights[s] = exp_f(weights[s] - biggest);
            total += weights[s];
        }
        float mix[SIZE] = {};  // the values, each times its weight
        for (int s = 0; s < T; s++) {
            weights[s] /= total;
            const float* value = values + s * WIDTH + h * SIZE;
            for (int i = 0; i < SIZE; i++) mix[i] += weights[s] * value[i];
        }
        for (int i = 0; i < SIZE; i++) found[h * SIZE + i] = mix[i];
    }
}
// END SOLUTION

// dlookups (T,3W) += what the loss says about each query, key and value, from dfound (T,W).
// BEGIN SOLUTION exercise tiny.2: attend's backward pass, which you write in ex2_Attend_Backward.cpp
// STUB: void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups,
// STUB:                      int T);
inline void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups, int T) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    float dweight[SEATS];
    for (int t = 0; t < T; t++) {
        for (int h = 0; h < HEADS; h++) {
            const float* row = weights + (h * T + t) * T;
            const float* dout = dfound + t * WIDTH + h * SIZE;  // d found for this letter and head
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
            const float* query = lookups + t * 3 * WIDTH + h * SIZE;
            float* dquery = dlookups + t * 3 * WIDTH + h * SIZE;
            // score = query . key * scale
            for (int s = 0; s <= t; s++) {
                const float dscore = row[s] * (dweight[s] - mixed) * scale;
                const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                float* dkey = dlookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                for (int i = 0; i < SIZE; i++) dquery[i] += dscore * key[i];
                for (int i = 0; i < SIZE; i++) dkey[i] += dscore * query[i];
            }
        }
    }
}
// END SOLUTION

// GELU in its tanh form: fired = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
// Since (1 + tanh(u)) / 2 = 1 / (1 + exp(-2u)), we compute it as x / (1 + exp(-2u)):
// the same function, and exp is several times faster than tanh.
constexpr float GELU_SCALE = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float GELU_CUBIC = 0.044715f;

// hidden, fired, share (n): share keeps 1 / (1 + exp(-2u)), between 0 and 1, for the backward.
inline void gelu_forward(float* fired, float* share, const float* hidden, int n) {
    for (int i = 0; i < n; i++) {
        const float x = hidden[i];
        const float minus_2u = -2.0f * GELU_SCALE * (x + GELU_CUBIC * x * x * x);
        share[i] = 1.0f / (1.0f + exp_f(minus_2u));
        fired[i] = x * share[i];
    }
}

// dhidden (n) = dfired times d fired / d x = share + x share (1 - share) 2 du/dx.
inline void gelu_backward(float* dhidden, const float* dfired, const float* hidden, const float* share, int n) {
    for (int i = 0; i < n; i++) {
        const float x = hidden[i], s = share[i];
        const float du = 2.0f * GELU_SCALE * (1.0f + 3.0f * GELU_CUBIC * x * x);
        dhidden[i] = dfired[i] * (s + x * s * (1.0f - s) * du);
    }
}

// probs (T,V) = softmax of each row of logits (T,V), as common/matrix.hpp's
// softmax computes it; biggest, total (T) keep each row's largest logit and
// its sum of exps, for next_letter_loss.
inline void softmax_forward(float* probs, float* biggest, float* total, const float* logits, int T, int V) {
    for (int t = 0; t < T; t++) {
        const float* l = logits + t * V;
        float* p = probs + t * V;
        float top = l[0], sum = 0.0f;
        for (int v = 1; v < V; v++) top = l[v] > top ? l[v] : top;
        for (int v = 0; v < V; v++) {
            p[v] = exp_f(l[v] - top);
            sum += p[v];
        }
        for (int v = 0; v < V; v++) p[v] /= sum;
        biggest[t] = top;
        total[t] = sum;
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
    float* level1_gain;     // (W)
    float* level1_bias;     // (W)
    float* lookup;          // (W,3W): queries in columns [0,W), keys in [W,2W), values in [2W,3W)
    float* write;           // (W,W): what attention found, written back into the notebooks
    float* level2_gain;     // (W)
    float* level2_bias;     // (W)
    float* network_hidden;  // (W,F): the small network widens each notebook to F
    float* network_write;   // (F,W): what the network fired, written back into the notebooks
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
        b.network_hidden = carve.take(WIDTH * HIDDEN);
        b.network_write = carve.take(HIDDEN * WIDTH);
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
inline const Knobs knobs(const TinyModel& model) { return knob_views(const_cast<float*>(model.knobs.data()), model.V); }

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
        fill(b.network_hidden, WIDTH * HIDDEN, narrow);
        fill(b.network_write, HIDDEN * WIDTH, wide * residual);
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
    float* weights;    // (HEADS,T,T) attention weights, [head][t][s], as attend_forward writes them
    float* found;      // (T,W) what each letter's heads read
    float* middle;     // (T,W) notebooks + found · write
    LevelTape second;  // level of the middle
    float* hidden;     // (T,F)
    float* fired;      // (T,F) GELU of hidden
    float* share;      // (T,F) GELU's share of hidden, for the backward
    float* out;        // (T,W) middle + fired · network_write: the next block's notebooks
};

struct Tape {
    int V, T = 0;
    std::vector<float> floats;  // every activation, in one block
    BlockTape block[BLOCKS];
    LevelTape last;  // the final level
    float* logits;   // (T,V)
    float* probs;    // (T,V) softmax of the logits: the next letter's probabilities
    float* biggest;  // (T) each row's largest logit
    float* total;    // (T) each row's sum of exp(logit - biggest)

    explicit Tape(int vocabulary_size) : V(vocabulary_size) {
        const size_t level = SEATS * WIDTH + 2 * SEATS;
        const size_t per_block =
            SEATS * WIDTH * 4 + 2 * level + SEATS * 3 * WIDTH + HEADS * SEATS * SEATS + 3 * SEATS * HIDDEN;
        floats.assign(SEATS * WIDTH + BLOCKS * per_block + level + 2 * size_t(SEATS) * V + 2 * SEATS, 0.0f);
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
            b.share = carve.take(SEATS * HIDDEN);
            b.out = notebooks = carve.take(SEATS * WIDTH);
        }
        last = take_level();
        logits = carve.take(SEATS * size_t(V));
        probs = carve.take(SEATS * size_t(V));
        biggest = carve.take(SEATS);
        total = carve.take(SEATS);
    }
    Tape(const Tape&) = delete;  // the views point into this tape's own floats
    Tape& operator=(const Tape&) = delete;
};

// How much letter t reads letter s in a block's head (0 when s > t).
inline float attention_weight(const Tape& tape, int block, int head, int t, int s) {
    return s > t ? 0.0f : tape.block[block].weights[(head * tape.T + t) * tape.T + s];
}

// A block's two adds, each keeping what came in (the residual connections).
// tiny_4_Residual_Adds takes one out to show what it keeps; everything else keeps both.
struct Adds {
    bool attention = true;  // middle = notebooks + found · write, or found · write alone
    bool network = true;    // out = middle + fired · network_write, or fired · network_write alone
};

// One block, as the chapter's `block` function.
inline void block_forward(const BlockKnobs& k, BlockTape& b, int T, Adds adds = {}) {
    level_forward(b.first.out, b.first.mean, b.first.rstd, b.notebooks, k.level1_gain, k.level1_bias, T);
    std::fill(b.lookups, b.lookups + T * 3 * WIDTH, 0.0f);
    multiply_forward(b.lookups, b.first.out, k.lookup, T, WIDTH, 3 * WIDTH);
    attend_forward(b.found, b.weights, b.lookups, T);
    // middle = notebooks + found · write (without the attention add, found · write alone)
    if (adds.attention) std::copy(b.notebooks, b.notebooks + T * WIDTH, b.middle);
    else std::fill(b.middle, b.middle + T * WIDTH, 0.0f);
    multiply_forward(b.middle, b.found, k.write, T, WIDTH, WIDTH);
    level_forward(b.second.out, b.second.mean, b.second.rstd, b.middle, k.level2_gain, k.level2_bias, T);
    std::fill(b.hidden, b.hidden + T * HIDDEN, 0.0f);
    multiply_forward(b.hidden, b.second.out, k.network_hidden, T, WIDTH, HIDDEN);
    gelu_forward(b.fired, b.share, b.hidden, T * HIDDEN);
    // out = middle + fired · network_write (without the network add, fired · network_write alone)
    if (adds.network) std::copy(b.middle, b.middle + T * WIDTH, b.out);
    else std::fill(b.out, b.out + T * WIDTH, 0.0f);
    multiply_forward(b.out, b.fired, k.network_write, T, HIDDEN, WIDTH);
}

// The whole model over ids[0..T), 1 <= T <= SEATS: fills the tape, ending with probs.
inline void forward(const TinyModel& model, const int* ids, int T, Tape& tape, Adds adds = {}) {
    const Knobs k = knobs(model);
    const int V = model.V;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward(k.block[b], tape.block[b], T, adds);
    level_forward(tape.last.out, tape.last.mean, tape.last.rstd, tape.block[BLOCKS - 1].out, k.final_gain, k.final_bias,
                  T);
    std::fill(tape.logits, tape.logits + T * V, 0.0f);
    multiply_forward(tape.logits, tape.last.out, k.output, T, WIDTH, V);
    softmax_forward(tape.probs, tape.biggest, tape.total, tape.logits, T, V);
}

// The cross-entropy of the letter after position t: -log p(target), from the
// logits (log-sum-exp) rather than log(probs), so a tiny p stays exact. The
// largest logit and the sum of the exps are the ones softmax found.
inline float next_letter_loss(const Tape& tape, int t, int target) {
    const float* l = tape.logits + t * tape.V;
    return log_f(tape.total[t]) - (l[target] - tape.biggest[t]);
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
    float *dnotebooks, *dmiddle, *dfound, *dlookups, *dlevel, *dhidden, *dfired, *dlogits;
    explicit Scratch(int V) {
        floats.assign(4 * SEATS * WIDTH + SEATS * 3 * WIDTH + 2 * SEATS * HIDDEN + SEATS * size_t(V), 0.0f);
        Carve carve{floats.data()};
        dnotebooks = carve.take(SEATS * WIDTH);
        dmiddle = carve.take(SEATS * WIDTH);
        dfound = carve.take(SEATS * WIDTH);
        dlevel = carve.take(SEATS * WIDTH);
        dlookups = carve.take(SEATS * 3 * WIDTH);
        dhidden = carve.take(SEATS * HIDDEN);
        dfired = carve.take(SEATS * HIDDEN);
        dlogits = carve.take(SEATS * size_t(V));
    }
};

// A block backward, block_forward's steps undone last first: d (T,W) holds
// d loss / d block's out on entry and d loss / d block's notebooks on return.
inline void block_backward(const BlockKnobs& k, BlockKnobs& g, const BlockTape& b, float* d, Scratch& s, int T) {
    // out = middle + fired · network_write
    std::copy(d, d + T * WIDTH, s.dmiddle);
    std::fill(s.dfired, s.dfired + T * HIDDEN, 0.0f);
    multiply_backward(s.dfired, g.network_write, d, b.fired, k.network_write, T, HIDDEN, WIDTH);
    // fired = gelu(hidden); hidden = second · network_hidden
    gelu_backward(s.dhidden, s.dfired, b.hidden, b.share, T * HIDDEN);
    std::fill(s.dlevel, s.dlevel + T * WIDTH, 0.0f);
    multiply_backward(s.dlevel, g.network_hidden, s.dhidden, b.second.out, k.network_hidden, T, WIDTH, HIDDEN);
    // second = level(middle)
    level_backward(s.dmiddle, g.level2_gain, g.level2_bias, s.dlevel, b.middle, b.second.mean, b.second.rstd,
                   k.level2_gain, T);
    // middle = notebooks + found · write
    std::copy(s.dmiddle, s.dmiddle + T * WIDTH, d);
    std::fill(s.dfound, s.dfound + T * WIDTH, 0.0f);
    multiply_backward(s.dfound, g.write, s.dmiddle, b.found, k.write, T, WIDTH, WIDTH);
    // found, weights = attend(lookups)
    std::fill(s.dlookups, s.dlookups + T * 3 * WIDTH, 0.0f);
    attend_backward(s.dlookups, s.dfound, b.weights, b.lookups, T);
    // lookups = first · lookup
    std::fill(s.dlevel, s.dlevel + T * WIDTH, 0.0f);
    multiply_backward(s.dlevel, g.lookup, s.dlookups, b.first.out, k.lookup, T, WIDTH, 3 * WIDTH);
    // first = level(notebooks)
    level_backward(d, g.level1_gain, g.level1_bias, s.dlevel, b.notebooks, b.first.mean, b.first.rstd, k.level1_gain,
                   T);
}

// Adds to grads (a block shaped like the knobs) scale times the gradient of
// loss_sum(tape, targets), for the sequence the tape's forward pass read.
inline void backward(const TinyModel& model, const Tape& tape, const int* ids, const int* targets, float scale,
                     float* grads, Scratch& s) {
    const Knobs k = knobs(model);
    Knobs g = knob_views(grads, model.V);
    const int V = model.V, T = tape.T;
    // d loss / d logits = probs - 1 at the target
    for (int t = 0; t < T; t++) {
        for (int v = 0; v < V; v++) s.dlogits[t * V + v] = tape.probs[t * V + v] * scale;
        s.dlogits[t * V + targets[t]] = (tape.probs[t * V + targets[t]] - 1.0f) * scale;
    }
    // logits = last · output
    std::fill(s.dlevel, s.dlevel + T * WIDTH, 0.0f);
    multiply_backward(s.dlevel, g.output, s.dlogits, tape.last.out, k.output, T, WIDTH, V);
    // last = level(the last block's out)
    std::fill(s.dnotebooks, s.dnotebooks + T * WIDTH, 0.0f);
    level_backward(s.dnotebooks, g.final_gain, g.final_bias, s.dlevel, tape.block[BLOCKS - 1].out, tape.last.mean,
                   tape.last.rstd, k.final_gain, T);
    for (int b = BLOCKS - 1; b >= 0; b--) block_backward(k.block[b], g.block[b], tape.block[b], s.dnotebooks, s, T);
    embed_backward(g.token, g.position, s.dnotebooks, ids, T);
}

// ===========================================================================
// Optimiser: AdamW, as tiny_train runs it, one loop over the flat block of knobs.
// Chapter 15's Adam (colour_recall.hpp) plus weight decay, with beta2 0.99 and each moment divided by its correction.

constexpr float ADAM_BETA1 = 0.9f, ADAM_BETA2 = 0.99f, ADAM_EPSILON = 1e-8f;

struct AdamW {
    std::vector<float> m, v;  // running mean of the gradient and of its square, one per knob, zero at the start
};

// Update `step` (counted from 0) of knobs first .. last-1 (the trainer shares
// them out among threads), from grads times clip: each knob's own Adam step,
// plus decay times the knob itself, times lr.
inline void adamw_step(TinyModel& model, const std::vector<float>& grads, float clip, AdamW& adam, float lr,
                       float decay, long step, size_t first, size_t last) {
    const float correct1 = float(1.0 - power(double(ADAM_BETA1), step + 1));
    const float correct2 = float(1.0 - power(double(ADAM_BETA2), step + 1));
    for (size_t i = first; i < last; i++) {
        const float g = grads[i] * clip;
        adam.m[i] = ADAM_BETA1 * adam.m[i] + (1.0f - ADAM_BETA1) * g;
        adam.v[i] = ADAM_BETA2 * adam.v[i] + (1.0f - ADAM_BETA2) * g * g;
        const float step_size = (adam.m[i] / correct1) / (std::sqrt(adam.v[i] / correct2) + ADAM_EPSILON);
        model.knobs[i] -= lr * (step_size + decay * model.knobs[i]);
    }
}

// ===========================================================================
// Sampler: the next letter from V logits, as tiny_generate draws it
// (exercise tiny.4 is to write these two; its handout declares them here).

// BEGIN SOLUTION exercise tiny.4: the sampler, which you write in ex4_Temperature.cpp
// STUB: std::vector<float> next_letter_probabilities(const float* logits, int V, float temperature);
// STUB: int sample_next(const float* logits, int V, float temperature, Rng& rng);
// probabilities (V) = softmax(logits / temperature), for a temperature above 0.
inline std::vector<float> next_letter_probabilities(const float* logits, int V, float temperature) {
    std::vector<float> p(logits, logits + V);
    for (float& x : p) x /= temperature;
    softmax(p.data(), V);
    return p;
}

// One u = rng.uniform() against the probabilities' running sum; at temperature
// 0, no draw: the first of the largest logits.
inline int sample_next(const float* logits, int V, float temperature, Rng& rng) {
    if (temperature == 0.0f) {
        int best = 0;
        for (int v = 1; v < V; v++)
            if (logits[v] > logits[best]) best = v;
        return best;
    }
    const std::vector<float> p = next_letter_probabilities(logits, V, temperature);
    const float u = rng.uniform();
    float running = 0.0f;
    for (int v = 0; v < V; v++) {
        running += p[v];
        if (u < running) return v;
    }
    return V - 1;  // u fell past a running sum rounded just below 1
}
// END SOLUTION
