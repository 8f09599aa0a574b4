// chapter_tiny/tiny_model.hpp: the tiny Shakespeare transformer of "Paying attention",
// forward and backward, and its checkpoint file.
//
// What a program that uses the model needs (this API stays as it is):
//
//   TinyModel model = load_model("chapter_tiny/shakespeare.tiny");  // bad file: one line, exit 2
//   std::vector<int> ids = encode(model, "The bag");                 // unknown character: exit 2
//   Tape tape(model.V);                            // room for up to SEATS letters
//   forward(model, ids.data(), int(ids.size()), tape);  // forward<EightAtATime>: the same, faster
//   attention_weight(tape, block, head, t, s)      // how much letter t reads letter s (s <= t)
//   tape.block[b].weights                          // all of them, by key: [head][s][t] (stride SEATS)
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
//
// [[gnu::cold]] marks what runs once (printing, parsing, options, pictures): the
// compiler builds it for size rather than speed, and a lesson compiles much faster.
// [[gnu::noinline]] marks the lessons' plain layers (multiply_plain, level_forward,
// gelu_forward): the forward pass calls each several times, and one copy of each
// rather than one per call is much less code to compile; a call per layer costs nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cli.hpp"
#include "lanes.hpp"   // eight floats at once, for the matrix products and attention
#include "maths.hpp"   // square_root, is_finite, FLOAT_INFINITY
#include "matrix.hpp"  // softmax, Rng

constexpr int WIDTH = 32;              // W: the numbers that stand for one letter
constexpr int SEATS = 64;              // positions: the model reads at most the last 64 letters
constexpr int BLOCKS = 2;              // attention + small network, repeated twice
constexpr int HEADS = 4;               // per block, so eight heads in all
constexpr int SIZE = WIDTH / HEADS;    // each head reads its own 8 of the 32 numbers
constexpr int HIDDEN = 128;            // F: the small network's hidden size
constexpr float LEVEL_EPSILON = 1e-5f;  // keeps level from dividing by zero
constexpr int MAX_VOCABULARY = 256;     // V: a checkpoint's letters are distinct bytes

// ===========================================================================
// Layers. Every matrix is row-major with shape (in, out) and is used as x·M.

// Every matrix product below is one kernel: out (R,N) += A (R,C) · B (C,N), each
// entry of out adding c = 0, 1, 2, ... in order, exactly as the plain loop
//   for r, for j: for c: out[r][j] += A[r][c] * B[c][j]
// would. A tile of 4 rows by 16 columns keeps its 64 running sums in
// registers (two Lanes of 8 per row) for the whole of c: 64 independent sums
// at once, never one sum split in two. A's entry (r,c) sits at
// A[r * a_row + c * a_col], so A can be read as it is or transposed.
// FRESH: out = A · B, each sum starting from 0 in a register instead of from
// out (the same bits as zeroing out first).
template <int ROWS, int VECTORS, bool FRESH>
inline void multiply_tile(float* __restrict out, int N, const float* __restrict A, size_t a_row, size_t a_col,
                          const float* __restrict B, int C) {
    Lanes sum[ROWS][VECTORS];
    UNROLLED for (int r = 0; r < ROWS; r++)
        UNROLLED for (int v = 0; v < VECTORS; v++)
            sum[r][v] = FRESH ? same_lanes(0.0f) : load_lanes(out + size_t(r) * N + v * LANES);
    for (int c = 0; c < C; c++) {
        Lanes b[VECTORS];
        UNROLLED for (int v = 0; v < VECTORS; v++) b[v] = load_lanes(B + size_t(c) * N + v * LANES);
        UNROLLED for (int r = 0; r < ROWS; r++) {
            const Lanes a = same_lanes(A[r * a_row + c * a_col]);
            UNROLLED for (int v = 0; v < VECTORS; v++) sum[r][v] += a * b[v];
        }
    }
    UNROLLED for (int r = 0; r < ROWS; r++)
        UNROLLED for (int v = 0; v < VECTORS; v++) store_lanes(out + size_t(r) * N + v * LANES, sum[r][v]);
}

// ROWS rows of out, in tiles of 16 columns, then 8, then one at a time.
template <int ROWS, bool FRESH>
inline void multiply_rows(float* out, int N, const float* A, size_t a_row, size_t a_col, const float* B, int C) {
    int j = 0;
    for (; j + 2 * LANES <= N; j += 2 * LANES) multiply_tile<ROWS, 2, FRESH>(out + j, N, A, a_row, a_col, B + j, C);
    for (; j + LANES <= N; j += LANES) multiply_tile<ROWS, 1, FRESH>(out + j, N, A, a_row, a_col, B + j, C);
    for (; j < N; j++) {  // the ROWS sums of one column side by side
        float sum[ROWS];
        for (int r = 0; r < ROWS; r++) sum[r] = FRESH ? 0.0f : out[size_t(r) * N + j];
        for (int c = 0; c < C; c++)
            UNROLLED for (int r = 0; r < ROWS; r++) sum[r] += A[r * a_row + c * a_col] * B[size_t(c) * N + j];
        for (int r = 0; r < ROWS; r++) out[size_t(r) * N + j] = sum[r];
    }
}

template <bool FRESH = false>
inline void multiply_add(float* out, const float* A, size_t a_row, size_t a_col, const float* B, int R, int C,
                         int N) {
    int r = 0;
    for (; r + 4 <= R; r += 4) multiply_rows<4, FRESH>(out + size_t(r) * N, N, A + r * a_row, a_row, a_col, B, C);
    for (; r < R; r++) multiply_rows<1, FRESH>(out + size_t(r) * N, N, A + r * a_row, a_row, a_col, B, C);
}

// out (T,N) += in (T,K) · M (K,N).
inline void multiply_forward(float* out, const float* in, const float* M, int T, int K, int N) {
    multiply_add(out, in, size_t(K), 1, M, T, K, N);
}

// out (T,N) = in (T,K) · M (K,N).
inline void multiply_forward_fresh(float* out, const float* in, const float* M, int T, int K, int N) {
    multiply_add<true>(out, in, size_t(K), 1, M, T, K, N);
}

// The same product as the plain loop, for the lessons' forward pass (quick to compile).
[[gnu::noinline]] inline void multiply_plain(float* out, const float* in, const float* M, int T, int K, int N) {
    for (int t = 0; t < T; t++)
        for (int j = 0; j < N; j++) {
            float sum = out[size_t(t) * N + j];
            for (int k = 0; k < K; k++) sum += in[size_t(t) * K + k] * M[size_t(k) * N + j];
            out[size_t(t) * N + j] = sum;
        }
}

// The backward of out = in · M, for the knob: dM (K,N) += in^T (K,T) · dout (T,N),
// adding t = 0, 1, 2, ... in order. (The backward for the input is
// din = dout · M^T: multiply_forward with M transposed.)
inline void multiply_backward(float* dM, const float* in, const float* dout, int T, int K, int N) {
    // t in blocks of 32: each tile then reads 32 rows of in and of dout, which
    // stay in the nearest cache across tiles. Each sum goes on from where the
    // last block left it, still in order, so the bits are the same.
    constexpr int BLOCK = 32;
    for (int t0 = 0; t0 < T; t0 += BLOCK)
        multiply_add(dM, in + size_t(t0) * K, 1, size_t(K), dout + size_t(t0) * N, K, std::min(BLOCK, T - t0), N);
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
[[gnu::noinline]] inline void level_forward(float* out, float* mean, float* rstd, const float* in, const float* gain,
                          const float* bias, int T) {
    for (int t = 0; t < T; t++) {
        const float* x = in + t * WIDTH;
        float sum = 0.0f;
        for (int i = 0; i < WIDTH; i++) sum += x[i];
        const float m = sum / WIDTH;
        float spread = 0.0f;
        for (int i = 0; i < WIDTH; i++) spread += (x[i] - m) * (x[i] - m);
        const float r = 1.0f / square_root(spread / WIDTH + LEVEL_EPSILON);
        for (int i = 0; i < WIDTH; i++) out[t * WIDTH + i] = (x[i] - m) * r * gain[i] + bias[i];
        mean[t] = m;
        rstd[t] = r;
    }
}

// din (T,W) += what the loss says about level's input; dgain, dbias (W) += theirs.
inline void level_backward(float* din, float* dgain, float* dbias, const float* dout, const float* in,
                           const float* mean, const float* rstd, const float* gain, int T) {
    // BEGIN SOLUTION exercise tiny.3: level's backward pass (chapter_tiny/exercises/ex3_Level_Backward.cpp)
    // STUB: (void)din, (void)dgain, (void)dbias, (void)dout, (void)in, (void)mean, (void)rstd, (void)gain, (void)T;
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
    // END SOLUTION
}

// The same two passes with eight rows at a time in the lanes, so each row's
// sums over its 32 numbers run side by side (still in order i = 0, 1, ...);
// the tests check them against the loops above, bit for bit. columns[i] holds
// number i of rows t0 .. t0+7 (0 past the last row).
inline void level_columns(Lanes* columns, const float* rows, int t0, int T) {
    float by_column[WIDTH][LANES] = {};
    for (int l = 0; l < std::min(LANES, T - t0); l++)
        for (int i = 0; i < WIDTH; i++) by_column[i][l] = rows[(t0 + l) * WIDTH + i];
    for (int i = 0; i < WIDTH; i++) columns[i] = load_lanes(by_column[i]);
}

inline void level_forward_lanes(float* out, float* mean, float* rstd, const float* in, const float* gain,
                                const float* bias, int T) {
    for (int t0 = 0; t0 < T; t0 += LANES) {
        Lanes x[WIDTH];
        level_columns(x, in, t0, T);
        Lanes sum = same_lanes(0.0f);
        for (int i = 0; i < WIDTH; i++) sum += x[i];
        const Lanes m = sum / float(WIDTH);
        Lanes spread = same_lanes(0.0f);
        for (int i = 0; i < WIDTH; i++) spread += (x[i] - m) * (x[i] - m);
        spread = spread / float(WIDTH) + LEVEL_EPSILON;
        for (int l = 0; l < std::min(LANES, T - t0); l++) {
            const int t = t0 + l;
            mean[t] = m[l];
            rstd[t] = 1.0f / square_root(spread[l]);
            for (int i = 0; i < WIDTH; i += LANES)
                store_lanes(out + t * WIDTH + i,
                            (load_lanes(in + t * WIDTH + i) - mean[t]) * rstd[t] * load_lanes(gain + i) +
                                load_lanes(bias + i));
        }
    }
}

inline void level_backward_lanes(float* din, float* dgain, float* dbias, const float* dout, const float* in,
                                 const float* mean, const float* rstd, const float* gain, int T) {
    constexpr int CHUNKS = WIDTH / LANES;
    Lanes dg[CHUNKS], db[CHUNKS];  // dgain and dbias add t = 0, 1, 2, ... in order
    for (int c = 0; c < CHUNKS; c++) {
        dg[c] = load_lanes(dgain + c * LANES);
        db[c] = load_lanes(dbias + c * LANES);
    }
    for (int t0 = 0; t0 < T; t0 += LANES) {
        const int rows = std::min(LANES, T - t0);
        Lanes x[WIDTH], d[WIDTH], m = same_lanes(0.0f), r = same_lanes(0.0f);
        level_columns(x, in, t0, T);
        level_columns(d, dout, t0, T);
        for (int l = 0; l < rows; l++) m[l] = mean[t0 + l], r[l] = rstd[t0 + l];
        Lanes dnorm_mean = same_lanes(0.0f), dnorm_norm_mean = same_lanes(0.0f);
        for (int i = 0; i < WIDTH; i++) {
            const Lanes norm = (x[i] - m) * r;
            const Lanes dnorm = d[i] * gain[i];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean = dnorm_mean / float(WIDTH);
        dnorm_norm_mean = dnorm_norm_mean / float(WIDTH);
        for (int l = 0; l < rows; l++) {
            const int t = t0 + l;
            for (int c = 0; c < CHUNKS; c++) {
                const int i = c * LANES;
                const Lanes xi = load_lanes(in + t * WIDTH + i), di = load_lanes(dout + t * WIDTH + i);
                const Lanes norm = (xi - mean[t]) * rstd[t];
                const Lanes dnorm = di * load_lanes(gain + i);
                dg[c] += di * norm;
                db[c] += di;
                store_lanes(din + t * WIDTH + i, load_lanes(din + t * WIDTH + i) +
                                                     (dnorm - dnorm_mean[l] - norm * dnorm_norm_mean[l]) * rstd[t]);
            }
        }
    }
    for (int c = 0; c < CHUNKS; c++) {
        store_lanes(dgain + c * LANES, dg[c]);
        store_lanes(dbias + c * LANES, db[c]);
    }
}

// attend, as the chapter's code: lookups (T,3W) holds each letter's query, key
// and value side by side; head h uses its SIZE numbers of each. For each letter
// t and head, score every s <= t (the causal mask is where the loop stops),
// softmax, and add up the values. found (T,W); weights (HEADS,T,T), 0 above the diagonal.
// Letters from `first` on are read (forward_last reads only the last one on).
inline void attend_forward(float* found, float* weights, const float* lookups, int T, int first = 0) {
    // BEGIN SOLUTION exercise tiny.1: attend (chapter_tiny/exercises/ex1_Attend.cpp)
    // STUB: for (int i = 0; i < T * WIDTH; i++) found[i] = 0.0f;
    // STUB: for (int i = 0; i < HEADS * T * T; i++) weights[i] = 0.0f;
    // STUB: (void)lookups, (void)first;
    const float scale = 1.0f / square_root(float(SIZE));
    for (int t = first; t < T; t++) {
        for (int h = 0; h < HEADS; h++) {
            const float* query = lookups + t * 3 * WIDTH + h * SIZE;
            float* row = weights + (h * T + t) * T;
            float biggest = -FLOAT_INFINITY;
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
    // END SOLUTION
}

// dlookups (T,3W) += what the loss says about each query, key and value, from dfound (T,W).
inline void attend_backward(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                            int T) {
    // BEGIN SOLUTION exercise tiny.2: attend's backward pass (chapter_tiny/exercises/ex2_Attend_Backward.cpp)
    // STUB: (void)dlookups, (void)dfound, (void)weights, (void)lookups, (void)T;
    const float scale = 1.0f / square_root(float(SIZE));
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
    // END SOLUTION
}

// The same two passes, eight letters at a time: each lane of a Lanes is one
// letter t, so every sum above (a dot over i, a sum over s) is still one
// lane's own sum, in the same order. Where s > t in a lane, the score is made
// -infinity (its weight is then exactly 0), so the extra terms add exactly 0.
// The weights are kept by key, weights (HEADS,SEATS,SEATS) [head][s][t], so
// that eight letters t side by side are one store here and one load in the
// backward pass (attention_weight reads them either way).
// The tests check both against the plain loops above, bit for bit.
static_assert(SIZE == LANES, "a head's numbers fill one Lanes");

// Letters from `first` on (rounded down to a multiple of eight) are read: each
// letter's reading depends on the letters before it only through their keys and values.
inline void attend_forward_lanes(float* found, float* weights, const float* lookups, int T, int first = 0) {
    const float scale = 1.0f / square_root(float(SIZE));
    // A window into this gives -infinity in the lanes before lane d, 0 from there on.
    float cut[2 * LANES];
    for (int i = 0; i < 2 * LANES; i++) cut[i] = i < LANES ? -FLOAT_INFINITY : 0.0f;
    for (int h = 0; h < HEADS; h++) {
        for (int t0 = first / LANES * LANES; t0 < T; t0 += LANES) {
            const int letters = std::min(LANES, T - t0), last = t0 + letters - 1;  // this block's t
            Lanes query[SIZE];  // query[i]: number i of the queries of letters t0 .. t0+7
            for (int i = 0; i < SIZE; i++) {
                query[i] = same_lanes(0.0f);
                for (int l = 0; l < letters; l++) query[i][l] = lookups[(t0 + l) * 3 * WIDTH + h * SIZE + i];
            }
            Lanes row[SEATS];  // row[s]: the scores, then the weights, of the 8 letters for key s
            Lanes biggest = same_lanes(-FLOAT_INFINITY);
            for (int s = 0; s <= last; s++) {
                const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                Lanes dot = same_lanes(0.0f);
                UNROLLED for (int i = 0; i < SIZE; i++) dot += query[i] * same_lanes(key[i]);
                row[s] = dot * same_lanes(scale) + load_lanes(cut + LANES - std::max(0, std::min(LANES, s - t0)));
                biggest = max_lanes(row[s], biggest);
            }
            for (int s = 0; s <= last; s++) row[s] = row[s] - biggest;
            exp_lanes_all(row, last + 1);
            Lanes total = same_lanes(0.0f);
            for (int s = 0; s <= last; s++) total += row[s];
            Lanes mix[SIZE];
            for (int i = 0; i < SIZE; i++) mix[i] = same_lanes(0.0f);
            for (int s = 0; s <= last; s++) {
                row[s] = row[s] / total;
                const float* value = lookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;
                UNROLLED for (int i = 0; i < SIZE; i++) mix[i] += row[s] * same_lanes(value[i]);
                store_lanes(weights + (h * SEATS + s) * SEATS + t0, row[s]);
            }
            for (int s = 0; s <= last; s++)  // lanes past the last letter read with no query: keep 0 there
                for (int l = letters; l < LANES; l++) weights[(h * SEATS + s) * SEATS + t0 + l] = 0.0f;
            for (int l = 0; l < letters; l++)
                for (int i = 0; i < SIZE; i++) found[(t0 + l) * WIDTH + h * SIZE + i] = mix[i][l];
        }
    }
}

// The lessons' attention: the chapter's attend_forward above, its weights then
// put in the tape's order by key, [head][s][t] (stride SEATS), as
// attend_forward_lanes keeps them. The same bits as the trainer's, for far less
// code to compile.
[[gnu::noinline]] inline void attend_forward_by_key(float* found, float* weights, const float* lookups, int T,
                                                    int first = 0) {
    float by_letter[HEADS * SEATS * SEATS];  // (HEADS,T,T), as attend_forward writes them
    attend_forward(found, by_letter, lookups, T, first);
    for (int h = 0; h < HEADS; h++)
        for (int t = first; t < T; t++)
            for (int s = 0; s < T; s++) weights[(h * SEATS + s) * SEATS + t] = by_letter[(h * T + t) * T + s];
}

// dvalue and dkey (d lookups) of keys s0 .. s0+KEYS-1 of head h, for attend_backward_lanes.
template <int KEYS>
inline void attend_backward_keys(float* dlookups, const float* dfound, const float* weights, const float* dscores,
                                 const float* lookups, int h, int s0, int T) {  // weights by key
    Lanes dvalue[KEYS], dkey[KEYS];
    UNROLLED for (int j = 0; j < KEYS; j++) dvalue[j] = dkey[j] = same_lanes(0.0f);
    for (int t = s0; t < T; t++) {
        const Lanes dout = load_lanes(dfound + t * WIDTH + h * SIZE);
        const Lanes query = load_lanes(lookups + t * 3 * WIDTH + h * SIZE);
        UNROLLED for (int j = 0; j < KEYS; j++) {
            dvalue[j] += same_lanes(weights[(h * SEATS + s0 + j) * SEATS + t]) * dout;
            dkey[j] += same_lanes(dscores[(s0 + j) * SEATS + t]) * query;
        }
    }
    UNROLLED for (int j = 0; j < KEYS; j++) {
        store_lanes(dlookups + (s0 + j) * 3 * WIDTH + 2 * WIDTH + h * SIZE, dvalue[j]);
        store_lanes(dlookups + (s0 + j) * 3 * WIDTH + WIDTH + h * SIZE, dkey[j]);
    }
}

inline void attend_backward_lanes(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                                  int T) {  // weights by key, as attend_forward_lanes wrote them
    const float scale = 1.0f / square_root(float(SIZE));
    float dscores[SEATS * SEATS];  // [s][t] for one head
    for (int h = 0; h < HEADS; h++) {
        // The queries' side, eight letters t at a time: dweight, dscore, dquery.
        for (int t0 = 0; t0 < T; t0 += LANES) {
            const int letters = std::min(LANES, T - t0), last = t0 + letters - 1;
            Lanes dout[SIZE];
            for (int i = 0; i < SIZE; i++) {
                dout[i] = same_lanes(0.0f);
                for (int l = 0; l < letters; l++) dout[i][l] = dfound[(t0 + l) * WIDTH + h * SIZE + i];
            }
            Lanes dweight[SEATS];
            Lanes mixed = same_lanes(0.0f);
            for (int s = 0; s <= last; s++) {
                const float* value = lookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;
                Lanes dot = same_lanes(0.0f);
                UNROLLED for (int i = 0; i < SIZE; i++) dot += dout[i] * same_lanes(value[i]);
                dweight[s] = dot;
                mixed += load_lanes(weights + (h * SEATS + s) * SEATS + t0) * dot;
            }
            Lanes dq[SIZE];
            for (int i = 0; i < SIZE; i++) dq[i] = same_lanes(0.0f);
            for (int s = 0; s <= last; s++) {
                const Lanes row = load_lanes(weights + (h * SEATS + s) * SEATS + t0);
                const Lanes dscore = row * (dweight[s] - mixed) * same_lanes(scale);
                store_lanes(dscores + s * SEATS + t0, dscore);
                const float* key = lookups + s * 3 * WIDTH + WIDTH + h * SIZE;
                UNROLLED for (int i = 0; i < SIZE; i++) dq[i] += dscore * same_lanes(key[i]);
            }
            for (int l = 0; l < letters; l++)
                for (int i = 0; i < SIZE; i++) dlookups[(t0 + l) * 3 * WIDTH + h * SIZE + i] = dq[i][l];
        }
        // The keys' and values' side, a head's 8 numbers in the lanes, four keys s
        // at a time; each adds t = s, s+1, ... in order (where t < s the weight
        // and dscore are 0, so starting at the first of the four adds only zeros).
        int s0 = 0;
        for (; s0 + 4 <= T; s0 += 4) attend_backward_keys<4>(dlookups, dfound, weights, dscores, lookups, h, s0, T);
        for (; s0 < T; s0++) attend_backward_keys<1>(dlookups, dfound, weights, dscores, lookups, h, s0, T);
    }
}

// GELU in its tanh form: fired = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
// Since (1 + tanh(u)) / 2 = 1 / (1 + exp(-2u)), we compute it as x / (1 + exp(-2u)):
// the same function, and exp is several times faster than tanh. hidden, fired (T,F).
constexpr float GELU_SCALE = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float GELU_CUBIC = 0.044715f;

// (1 + tanh(u)) / 2 = 1 / (1 + exp(minus_2u)), between 0 and 1; F is float or Lanes.
template <class F>
inline F gelu_minus_2u(const F& x) {
    return -2.0f * GELU_SCALE * (x + GELU_CUBIC * x * x * x);
}

// share (T,F) keeps each share, 1 / (1 + exp(-2u)), for the backward pass.
[[gnu::noinline]] inline void gelu_forward(float* fired, float* share, const float* hidden, int n) {
    for (int i = 0; i < n; i++) {
        share[i] = 1.0f / (1.0f + exp_f(gelu_minus_2u(hidden[i])));
        fired[i] = hidden[i] * share[i];
    }
}

// The same, EXP_BUNCH Lanes at a time, so their exps run side by side.
inline void gelu_forward_lanes(float* fired, float* share, const float* hidden, int n) {
    int i = 0;
    for (; i + EXP_BUNCH * LANES <= n; i += EXP_BUNCH * LANES) {
        Lanes e[EXP_BUNCH];
        for (int j = 0; j < EXP_BUNCH; j++) e[j] = gelu_minus_2u(load_lanes(hidden + i + j * LANES));
        exp_lanes<EXP_BUNCH>(e);
        for (int j = 0; j < EXP_BUNCH; j++) {
            const Lanes s = 1.0f / (1.0f + e[j]);
            store_lanes(share + i + j * LANES, s);
            store_lanes(fired + i + j * LANES, load_lanes(hidden + i + j * LANES) * s);
        }
    }
    gelu_forward(fired + i, share + i, hidden + i, n - i);
}

// d fired / d x = share + x share (1 - share) 2 du/dx; F is float or Lanes.
template <class F>
inline F gelu_slope(const F& x, const F& share) {
    const F du = 2.0f * GELU_SCALE * (1.0f + 3.0f * GELU_CUBIC * x * x);
    return share + x * share * (1.0f - share) * du;
}

inline void gelu_backward(float* dhidden, const float* dfired, const float* hidden, const float* share, int n) {
    int i = 0;
    for (; i + LANES <= n; i += LANES)
        store_lanes(dhidden + i, load_lanes(dfired + i) * gelu_slope(load_lanes(hidden + i), load_lanes(share + i)));
    for (; i < n; i++) dhidden[i] = dfired[i] * gelu_slope(hidden[i], share[i]);
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
    const float narrow = 1.0f / square_root(float(WIDTH)), wide = 1.0f / square_root(float(HIDDEN));
    const float residual = 1.0f / square_root(2.0f * BLOCKS);
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
    float* weights;    // (HEADS,SEATS,SEATS) attention weights by key, [head][s][t]: read them with attention_weight
    float* found;      // (T,W) what each letter's heads read
    float* middle;     // (T,W) notebooks + found · write
    LevelTape second;  // level of the middle
    float* hidden;     // (T,F)
    float* fired;      // (T,F) GELU of hidden
    float* share;      // (T,F) GELU's share of hidden, for the backward
    float* out;        // (T,W) middle + fired · out: the next block's notebooks
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
        const size_t per_block = SEATS * WIDTH * 4 + 2 * level + SEATS * 3 * WIDTH + HEADS * SEATS * SEATS +
                                 3 * SEATS * HIDDEN;
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
    return s > t ? 0.0f : tape.block[block].weights[(head * SEATS + s) * SEATS + t];
}

// probs after each letter = softmax of its logits, as common/matrix.hpp's
// softmax computes it (the same operations in the same order), keeping the
// largest logit and the sum of the exps for next_letter_loss.
inline void next_letter_probabilities(Tape& tape, int first = 0) {  // rows first .. T-1
    const int V = tape.V;
    for (int t = first; t < tape.T; t++) {
        const float* l = tape.logits + t * V;
        float* p = tape.probs + t * V;
        float biggest = l[0], total = 0.0f;
        for (int v = 1; v < V; v++) biggest = l[v] > biggest ? l[v] : biggest;
        for (int v = 0; v < V; v++) {
            p[v] = exp_f(l[v] - biggest);
            total += p[v];
        }
        for (int v = 0; v < V; v++) p[v] /= total;
        tape.biggest[t] = biggest;
        tape.total[t] = total;
    }
}

// The same, eight rows at a time, one row in each lane: column[v] holds logit v
// of the eight rows, so each row's largest, exps, sum and shares are its own
// lane's, in the same order as above.
inline void next_letter_probabilities_lanes(Tape& tape, int first = 0) {
    const int V = std::max(tape.V, 1);  // V >= 2 always; saying so shows the compiler by_column[0] is written
    for (int t0 = first; t0 < tape.T; t0 += LANES) {
        const int rows = std::min(LANES, tape.T - t0);
        float by_column[MAX_VOCABULARY][LANES];  // written a float at a time, read a Lanes at a time
        for (int v = 0; v < V; v++)
            for (int r = 0; r < LANES; r++) by_column[v][r] = r < rows ? tape.logits[(t0 + r) * V + v] : 0.0f;
        Lanes biggest = load_lanes(by_column[0]);
        for (int v = 1; v < V; v++) biggest = max_lanes(load_lanes(by_column[v]), biggest);
        Lanes column[MAX_VOCABULARY];
        for (int v = 0; v < V; v++) column[v] = load_lanes(by_column[v]) - biggest;
        exp_lanes_all(column, V);
        Lanes total = same_lanes(0.0f);
        for (int v = 0; v < V; v++) total += column[v];
        for (int v = 0; v < V; v++) store_lanes(by_column[v], column[v] / total);
        for (int r = 0; r < rows; r++) {
            for (int v = 0; v < V; v++) tape.probs[(t0 + r) * V + v] = by_column[v][r];
            tape.biggest[t0 + r] = biggest[r];
            tape.total[t0 + r] = total[r];
        }
    }
}

// The forward pass runs its layers one of two ways, with the same bits
// (tests/unit/tiny_model_test.cpp checks each layer both ways): one number at a
// time, the plain loops, which the lessons run and which compile quickly; or
// eight at a time, which the trainer runs.
struct OneAtATime {
    static void multiply(float* out, const float* in, const float* M, int T, int K, int N) {  // out += in · M
        multiply_plain(out, in, M, T, K, N);
    }
    static void multiply_fresh(float* out, const float* in, const float* M, int T, int K, int N) {  // out = in · M
        std::fill(out, out + size_t(T) * N, 0.0f);
        multiply_plain(out, in, M, T, K, N);
    }
    static constexpr auto level = level_forward;
    static constexpr auto attend = attend_forward_by_key;
    static constexpr auto gelu = gelu_forward;
    static constexpr auto probabilities = next_letter_probabilities;
};

struct EightAtATime {
    static constexpr auto multiply = multiply_forward;
    static constexpr auto multiply_fresh = multiply_forward_fresh;
    static constexpr auto level = level_forward_lanes;
    static constexpr auto attend = attend_forward_lanes;
    static constexpr auto gelu = gelu_forward_lanes;
    static constexpr auto probabilities = next_letter_probabilities_lanes;
};

// One block, as the chapter's `block` function. Every letter's key and value
// are made; what comes after attention is made for letters first .. T-1 only
// (forward_last), each letter's row on its own.
template <class Loops>
inline void block_forward(const BlockKnobs& k, BlockTape& b, int T, int first = 0) {
    Loops::level(b.first.out, b.first.mean, b.first.rstd, b.notebooks, k.level1_gain, k.level1_bias, T);
    Loops::multiply_fresh(b.lookups, b.first.out, k.lookup, T, WIDTH, 3 * WIDTH);
    Loops::attend(b.found, b.weights, b.lookups, T, first);
    const int rows = T - first, w = first * WIDTH, f = first * HIDDEN;  // where row `first` starts
    std::memcpy(b.middle + w, b.notebooks + w, sizeof(float) * rows * WIDTH);  // keep what was already there
    Loops::multiply(b.middle + w, b.found + w, k.write, rows, WIDTH, WIDTH);
    Loops::level(b.second.out + w, b.second.mean + first, b.second.rstd + first, b.middle + w, k.level2_gain,
                 k.level2_bias, rows);
    Loops::multiply_fresh(b.hidden + f, b.second.out + w, k.hidden, rows, WIDTH, HIDDEN);
    Loops::gelu(b.fired + f, b.share + f, b.hidden + f, rows * HIDDEN);
    std::memcpy(b.out + w, b.middle + w, sizeof(float) * rows * WIDTH);
    Loops::multiply(b.out + w, b.fired + f, k.out, rows, HIDDEN, WIDTH);
}

// The whole model over ids[0..T), 1 <= T <= SEATS: fills the tape, ending with
// probs. forward<EightAtATime>(...) gives the same tape, faster (the trainer's).
template <class Loops = OneAtATime>
inline void forward(const TinyModel& model, const int* ids, int T, Tape& tape) {
    const Knobs k = knobs(model);
    const int V = model.V;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward<Loops>(k.block[b], tape.block[b], T);
    Loops::level(tape.last.out, tape.last.mean, tape.last.rstd, tape.block[BLOCKS - 1].out, k.final_gain,
                 k.final_bias, T);
    Loops::multiply_fresh(tape.logits, tape.last.out, k.output, T, WIDTH, V);
    Loops::probabilities(tape, 0);
}

// What a generator needs: the logits and probabilities after the last letter
// (row T-1), the same numbers as forward's, for about half the work. The last
// block still makes every letter's key and value, but only the last letter
// reads on through it. The last block's other rows, and the logits' and probs'
// other rows, are left as they were.
template <class Loops = OneAtATime>
inline void forward_last(const TinyModel& model, const int* ids, int T, Tape& tape) {
    const Knobs k = knobs(model);
    const int V = model.V, t = T - 1;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward<Loops>(k.block[b], tape.block[b], T, b == BLOCKS - 1 ? t : 0);
    Loops::level(tape.last.out + t * WIDTH, tape.last.mean + t, tape.last.rstd + t,
                 tape.block[BLOCKS - 1].out + t * WIDTH, k.final_gain, k.final_bias, 1);
    Loops::multiply_fresh(tape.logits + t * V, tape.last.out + t * WIDTH, k.output, 1, WIDTH, V);
    Loops::probabilities(tape, t);
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

// The knobs with every matrix transposed, in a block shaped like the knobs
// (knob_views reads it; the gains, biases and tables are copied as they are):
// the backward for a product's input is din = dout · M^T. They change only
// when the knobs do, so the trainer makes them once per step.
inline std::vector<float> transposed_knobs(const TinyModel& model) {
    std::vector<float> block = model.knobs;
    const Knobs k = knobs(model);
    Knobs t = knob_views(block.data(), model.V);
    for (int b = 0; b < BLOCKS; b++) {
        transpose_into(t.block[b].lookup, k.block[b].lookup, WIDTH, 3 * WIDTH);  // (3W,W)
        transpose_into(t.block[b].write, k.block[b].write, WIDTH, WIDTH);
        transpose_into(t.block[b].hidden, k.block[b].hidden, WIDTH, HIDDEN);  // (F,W)
        transpose_into(t.block[b].out, k.block[b].out, HIDDEN, WIDTH);        // (W,F)
    }
    transpose_into(t.output, k.output, WIDTH, model.V);  // (V,W)
    return block;
}

// A block backward: d (T,W) holds d loss / d block's out on entry and
// d loss / d block's notebooks on return.
// kt: the block's knobs transposed (transposed_knobs).
inline void block_backward(const BlockKnobs& k, const BlockKnobs& kt, BlockKnobs& g, const BlockTape& b, float* d,
                           Scratch& s, int T) {
    // out = middle + fired · out
    std::memcpy(s.dmiddle, d, sizeof(float) * T * WIDTH);
    multiply_backward(g.out, b.fired, d, T, HIDDEN, WIDTH);
    multiply_forward_fresh(s.dfired, d, kt.out, T, WIDTH, HIDDEN);
    // fired = gelu(hidden); hidden = second · hidden
    gelu_backward(s.dhidden, s.dfired, b.hidden, b.share, T * HIDDEN);
    multiply_backward(g.hidden, b.second.out, s.dhidden, T, WIDTH, HIDDEN);
    multiply_forward_fresh(s.dlevel, s.dhidden, kt.hidden, T, HIDDEN, WIDTH);
    // second = level(middle)
    level_backward_lanes(s.dmiddle, g.level2_gain, g.level2_bias, s.dlevel, b.middle, b.second.mean, b.second.rstd,
                   k.level2_gain, T);
    // middle = notebooks + found · write
    std::memcpy(d, s.dmiddle, sizeof(float) * T * WIDTH);
    multiply_backward(g.write, b.found, s.dmiddle, T, WIDTH, WIDTH);
    multiply_forward_fresh(s.dfound, s.dmiddle, kt.write, T, WIDTH, WIDTH);
    // found, weights = attend(lookups)
    std::memset(s.dlookups, 0, sizeof(float) * T * 3 * WIDTH);
    attend_backward_lanes(s.dlookups, s.dfound, b.weights, b.lookups, T);
    // lookups = first · lookup
    multiply_backward(g.lookup, b.first.out, s.dlookups, T, WIDTH, 3 * WIDTH);
    multiply_forward_fresh(s.dlevel, s.dlookups, kt.lookup, T, 3 * WIDTH, WIDTH);
    // first = level(notebooks)
    level_backward_lanes(d, g.level1_gain, g.level1_bias, s.dlevel, b.notebooks, b.first.mean, b.first.rstd,
                   k.level1_gain, T);
}

// Adds to grads (a block shaped like the knobs) scale times the gradient of
// loss_sum(tape, targets), for the sequence the tape's forward pass read.
// transposed: transposed_knobs(model), or nullptr to have it made here.
inline void backward(const TinyModel& model, const Tape& tape, const int* ids, const int* targets, float scale,
                     float* grads, Scratch& s, const float* transposed = nullptr) {
    std::vector<float> made;
    if (transposed == nullptr) {
        made = transposed_knobs(model);
        transposed = made.data();
    }
    const Knobs k = knobs(model), kt = knob_views(const_cast<float*>(transposed), model.V);
    Knobs g = knob_views(grads, model.V);
    const int V = model.V, T = tape.T;
    // d loss / d logits = probs - 1 at the target
    for (int t = 0; t < T; t++) {
        for (int v = 0; v < V; v++) s.dlogits[t * V + v] = tape.probs[t * V + v] * scale;
        s.dlogits[t * V + targets[t]] = (tape.probs[t * V + targets[t]] - 1.0f) * scale;
    }
    multiply_backward(g.output, tape.last.out, s.dlogits, T, WIDTH, V);
    multiply_forward_fresh(s.dlevel, s.dlogits, kt.output, T, V, WIDTH);
    std::memset(s.dnotebooks, 0, sizeof(float) * T * WIDTH);
    level_backward_lanes(s.dnotebooks, g.final_gain, g.final_bias, s.dlevel, tape.block[BLOCKS - 1].out, tape.last.mean,
                   tape.last.rstd, k.final_gain, T);
    for (int b = BLOCKS - 1; b >= 0; b--) block_backward(k.block[b], kt.block[b], g.block[b], tape.block[b], s.dnotebooks, s, T);
    embed_backward(g.token, g.position, s.dnotebooks, ids, T);
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

// ===========================================================================
// Vocabulary

// The characters of text as ids; a character the model does not know ends the program.
[[gnu::cold]] inline std::vector<int> encode(const TinyModel& model, const std::string& text) {
    std::vector<int> ids(text.size());
    for (size_t i = 0; i < text.size(); i++) {
        const size_t id = model.vocabulary.find(text[i]);
        if (id == std::string::npos) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            fail(formatted(c >= 32 && c < 127 ? "character '%c' at position %zu is not in the model's vocabulary"
                                              : "character byte 0x%02X at position %zu is not in the model's vocabulary",
                           c, i));
        }
        ids[i] = int(id);
    }
    return ids;
}

[[gnu::cold]] inline std::string decode(const TinyModel& model, const std::vector<int>& ids) {
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

[[gnu::cold]] inline std::string model_bytes(const TinyModel& model) {
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
[[gnu::cold]] inline std::string parse_model(const std::string& bytes, TinyModel& model) {
    const size_t size = bytes.size();
    if (size < 4 || bytes.compare(0, 4, "TINY") != 0)
        return "is not a tiny model checkpoint (it does not start with the 4 bytes TINY)";
    if (size < CHECKPOINT_HEADER)
        return formatted("is truncated: %zu bytes, shorter than the %zu-byte header", size, CHECKPOINT_HEADER);
    const uint32_t version = get_u32(bytes, 4);
    if (version != CHECKPOINT_VERSION)
        return formatted("has checkpoint version %u, but this program reads version %u", unsigned(version),
                         unsigned(CHECKPOINT_VERSION));
    const uint32_t V = get_u32(bytes, 8);
    const char* names[] = {"width", "seats", "blocks", "heads", "hidden size"};
    const int want[] = {WIDTH, SEATS, BLOCKS, HEADS, HIDDEN};
    for (int i = 0; i < 5; i++) {
        const uint32_t got = get_u32(bytes, 12 + 4 * i);
        if (got != uint32_t(want[i]))
            return formatted("says its %s is %u, but this program's model has %d", names[i], unsigned(got), want[i]);
    }
    if (V < 2 || V > MAX_VOCABULARY)
        return formatted("has vocabulary size %u (it must be from 2 to %d)", unsigned(V), MAX_VOCABULARY);
    const size_t expected = CHECKPOINT_HEADER + V + 4 * knob_count(int(V));
    if (size < expected) return formatted("is truncated: %zu bytes, but its sizes need %zu", size, expected);
    if (size > expected)
        return formatted("has %zu bytes, but its sizes need %zu (%zu bytes too many)", size, expected, size - expected);
    const char* vocabulary = bytes.data() + CHECKPOINT_HEADER;
    for (uint32_t i = 1; i < V; i++)
        if (static_cast<unsigned char>(vocabulary[i - 1]) >= static_cast<unsigned char>(vocabulary[i]))
            return formatted("has a vocabulary that is not sorted and distinct at id %u", unsigned(i));
    std::vector<float> values(knob_count(int(V)));
    for (size_t i = 0; i < values.size(); i++) {
        uint32_t bits = get_u32(bytes, CHECKPOINT_HEADER + V + 4 * i);
        std::memcpy(&values[i], &bits, 4);
        if (!is_finite(values[i])) return formatted("has knob %zu that is not a finite number", i);
    }
    model.vocabulary.assign(vocabulary, V);
    model.V = int(V);
    model.knobs = std::move(values);
    return "";
}

[[gnu::cold]] inline TinyModel load_model(const std::string& path) {
    TinyModel model;
    std::string problem = parse_model(read_file(path), model);
    if (!problem.empty()) fail(formatted("'%s' %s", path.c_str(), problem.c_str()));
    return model;
}

[[gnu::cold]] inline void save_model(const std::string& path, const TinyModel& model) { write_file_atomic(path, model_bytes(model)); }
