// chapter_tiny/tiny_model_fast.hpp: the tiny model's layers, forward and
// backward again, faster, for the programs whose speed matters (tiny_train,
// tiny_generate). Each `<name>_fast` gives the bits of tiny_model.hpp's
// `<name>`, the chapter's plain loops: every output is the same float
// operations in the same order, only more of them at once. tests/unit/tiny_fast_test.cpp
// compares each with its plain one, and the whole forward and backward passes,
// bit for bit. chapter_tiny/README.md ("What makes it fast") says how.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "lanes.hpp"  // Lanes: eight floats at once
#include "tiny_model.hpp"

// ===========================================================================
// Matrix products

// Every product below is one kernel: out (R,N) += A (R,C) · B (C,N), each
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
    UNROLLED for (int r = 0; r < ROWS; r++) {
        UNROLLED for (int v = 0; v < VECTORS; v++) sum[r][v] =
            FRESH ? same_lanes(0.0f) : load_lanes(out + size_t(r) * N + v * LANES);
    }
    for (int c = 0; c < C; c++) {
        Lanes b[VECTORS];
        UNROLLED for (int v = 0; v < VECTORS; v++) b[v] = load_lanes(B + size_t(c) * N + v * LANES);
        UNROLLED for (int r = 0; r < ROWS; r++) {
            const Lanes a = same_lanes(A[r * a_row + c * a_col]);
            UNROLLED for (int v = 0; v < VECTORS; v++) sum[r][v] += a * b[v];
        }
    }
    UNROLLED for (int r = 0; r < ROWS; r++) {
        UNROLLED for (int v = 0; v < VECTORS; v++) store_lanes(out + size_t(r) * N + v * LANES, sum[r][v]);
    }
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

template <bool FRESH>
inline void multiply_add(float* out, const float* A, size_t a_row, size_t a_col, const float* B, int R, int C, int N) {
    int r = 0;
    for (; r + 4 <= R; r += 4) multiply_rows<4, FRESH>(out + size_t(r) * N, N, A + r * a_row, a_row, a_col, B, C);
    for (; r < R; r++) multiply_rows<1, FRESH>(out + size_t(r) * N, N, A + r * a_row, a_row, a_col, B, C);
}

// = multiply_forward, bit for bit: out (T,N) += in (T,K) · M (K,N). FRESH: out = in · M,
// the bits of zeroing out and then multiply_forward.
template <bool FRESH = false>
inline void multiply_forward_fast(float* out, const float* in, const float* M, int T, int K, int N) {
    multiply_add<FRESH>(out, in, size_t(K), 1, M, T, K, N);
}

// = multiply_backward, bit for bit: din (T,K) += dout (T,N) · M^T and dM (K,N) += in^T · dout,
// where MT (N,K) is M transposed (transposed_knobs), so that din is one more
// product of the kind above. FRESH: din = dout · M^T (the bits of zeroing din first).
template <bool FRESH = false>
inline void multiply_backward_fast(float* din, float* dM, const float* dout, const float* in, const float* MT, int T,
                                   int K, int N) {
    multiply_add<FRESH>(din, dout, size_t(N), 1, MT, T, N, K);
    // t in blocks of 32: each tile then reads 32 rows of in and of dout, which
    // stay in the nearest cache across tiles. Each sum goes on from where the
    // last block left it, still in order, so the bits are the same.
    constexpr int BLOCK = 32;
    for (int t0 = 0; t0 < T; t0 += BLOCK)
        multiply_add<false>(dM, in + size_t(t0) * K, 1, size_t(K), dout + size_t(t0) * N, K, std::min(BLOCK, T - t0),
                            N);
}

// MT (N,K) = M (K,N) transposed.
inline void transpose_into(float* MT, const float* M, int K, int N) {
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) MT[size_t(j) * K + k] = M[size_t(k) * N + j];
}

// The knobs with every matrix transposed, in a block shaped like the knobs
// (knob_views reads it; the gains, biases and tables are copied as they are),
// for multiply_backward_fast. They change only when the knobs do, so the
// trainer makes them once per step.
inline std::vector<float> transposed_knobs(const TinyModel& model) {
    std::vector<float> block = model.knobs;
    const Knobs k = knobs(model);
    Knobs t = knob_views(block.data(), model.V);
    for (int b = 0; b < BLOCKS; b++) {
        transpose_into(t.block[b].lookup, k.block[b].lookup, WIDTH, 3 * WIDTH);  // (3W,W)
        transpose_into(t.block[b].write, k.block[b].write, WIDTH, WIDTH);
        transpose_into(t.block[b].network_hidden, k.block[b].network_hidden, WIDTH, HIDDEN);  // (F,W)
        transpose_into(t.block[b].network_write, k.block[b].network_write, HIDDEN, WIDTH);    // (W,F)
    }
    transpose_into(t.output, k.output, WIDTH, model.V);  // (V,W)
    return block;
}

// ===========================================================================
// level, eight rows at a time in the lanes, so each row's sums over its 32
// numbers run side by side (still in order i = 0, 1, ...). columns[i] holds
// number i of rows t0 .. t0+7 (0 past the last row).
inline void level_columns(Lanes* columns, const float* rows, int t0, int T) {
    float by_column[WIDTH][LANES] = {};
    for (int l = 0; l < std::min(LANES, T - t0); l++)
        for (int i = 0; i < WIDTH; i++) by_column[i][l] = rows[(t0 + l) * WIDTH + i];
    for (int i = 0; i < WIDTH; i++) columns[i] = load_lanes(by_column[i]);
}

// = level_forward, bit for bit, eight rows at a time.
inline void level_forward_fast(float* out, float* mean, float* rstd, const float* in, const float* gain,
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
            rstd[t] = 1.0f / std::sqrt(spread[l]);
            for (int i = 0; i < WIDTH; i += LANES)
                store_lanes(
                    out + t * WIDTH + i,
                    (load_lanes(in + t * WIDTH + i) - mean[t]) * rstd[t] * load_lanes(gain + i) + load_lanes(bias + i));
        }
    }
}

// = level_backward, bit for bit, eight rows at a time; dgain and dbias add t = 0, 1, 2, ... in order.
inline void level_backward_fast(float* din, float* dgain, float* dbias, const float* dout, const float* in,
                                const float* mean, const float* rstd, const float* gain, int T) {
    constexpr int CHUNKS = WIDTH / LANES;
    Lanes dg[CHUNKS], db[CHUNKS];
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

// ===========================================================================
// Attention, eight letters at a time: each lane of a Lanes is one letter t, so
// every sum of the plain loops (a dot over i, a sum over s) is still one lane's
// own sum, in the same order. Where s > t in a lane, the score is made
// -infinity (its weight is then exactly 0), so the extra terms add exactly 0.
static_assert(SIZE == LANES, "a head's numbers fill one Lanes");

// Numbers s0 .. s0+7 of a row of n numbers, as Lanes (0 past the row's end).
// Always inlined: g++ -O2 would split the tail loop into a function that
// returns a 32-byte vector, which without -mavx2 it warns about (-Wpsabi).
[[gnu::always_inline]] inline Lanes load_row(const float* row, int n, int s0) {
    if (s0 + LANES <= n) return load_lanes(row + s0);
    Lanes x = same_lanes(0.0f);
    for (int j = 0; s0 + j < n; j++) x[j] = row[s0 + j];
    return x;
}

// x into numbers s0 .. s0+7 of a row of n numbers (those before its end).
inline void store_row(float* row, int n, int s0, const Lanes& x) {
    if (s0 + LANES <= n) return store_lanes(row + s0, x);
    for (int j = 0; s0 + j < n; j++) row[s0 + j] = x[j];
}

// = attend_forward, bit for bit, for letters first .. T-1 (first rounded down to a multiple
// of eight; forward_last_fast reads the last letter only): each letter's
// reading depends on the letters before it only through their keys and values.
// weights (HEADS,T,T), [head][t][s], as attend_forward writes them.
inline void attend_forward_fast(float* found, float* weights, const float* lookups, int T, int first = 0) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    // A window into this gives -infinity in the lanes before lane d, 0 from there on.
    float cut[2 * LANES];
    for (int i = 0; i < 2 * LANES; i++) cut[i] = i < LANES ? -INFINITY : 0.0f;
    for (int h = 0; h < HEADS; h++) {
        for (int t0 = first / LANES * LANES; t0 < T; t0 += LANES) {
            const int letters = std::min(LANES, T - t0), last = t0 + letters - 1;  // this block's t
            Lanes query[SIZE];  // query[i]: number i of the queries of letters t0 .. t0+7
            for (int i = 0; i < SIZE; i++) {
                query[i] = same_lanes(0.0f);
                for (int l = 0; l < letters; l++) query[i][l] = lookups[(t0 + l) * 3 * WIDTH + h * SIZE + i];
            }
            Lanes row[SEATS];  // row[s]: the scores, then the weights, of the 8 letters for key s
            Lanes biggest = same_lanes(-INFINITY);
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
            }
            for (int l = 0; l < letters; l++)
                for (int i = 0; i < SIZE; i++) found[(t0 + l) * WIDTH + h * SIZE + i] = mix[i][l];
            // The weights into the tape's order, [t][s]: eight keys s at a time,
            // transposed in place (row[s0 + l] is then letter t0 + l's weights of keys s0 .. s0+7).
            const int written = (last / LANES + 1) * LANES;  // keys up to a whole Lanes; 0 from there on
            for (int s = last + 1; s < written; s++) row[s] = same_lanes(0.0f);
            for (int s0 = 0; s0 < written; s0 += LANES) {
                transpose_lanes(row + s0);
                for (int l = 0; l < letters; l++) store_row(weights + (h * T + t0 + l) * T, T, s0, row[s0 + l]);
            }
            for (int l = 0; l < letters; l++)
                for (int s0 = written; s0 < T; s0 += LANES)
                    store_row(weights + (h * T + t0 + l) * T, T, s0, same_lanes(0.0f));
        }
    }
}

// dvalue and dkey (d lookups) of keys s0 .. s0+KEYS-1 of head h, for
// attend_backward_fast; by_key and dscores are one head's, [s][t] with stride SEATS.
template <int KEYS>
inline void attend_backward_keys(float* dlookups, const float* dfound, const float* by_key, const float* dscores,
                                 const float* lookups, int h, int s0, int T) {
    Lanes dvalue[KEYS], dkey[KEYS];
    UNROLLED for (int j = 0; j < KEYS; j++) dvalue[j] = dkey[j] = same_lanes(0.0f);
    for (int t = s0; t < T; t++) {
        const Lanes dout = load_lanes(dfound + t * WIDTH + h * SIZE);
        const Lanes query = load_lanes(lookups + t * 3 * WIDTH + h * SIZE);
        UNROLLED for (int j = 0; j < KEYS; j++) {
            dvalue[j] += same_lanes(by_key[(s0 + j) * SEATS + t]) * dout;
            dkey[j] += same_lanes(dscores[(s0 + j) * SEATS + t]) * query;
        }
    }
    UNROLLED for (int j = 0; j < KEYS; j++) {
        store_lanes(dlookups + (s0 + j) * 3 * WIDTH + 2 * WIDTH + h * SIZE, dvalue[j]);
        store_lanes(dlookups + (s0 + j) * 3 * WIDTH + WIDTH + h * SIZE, dkey[j]);
    }
}

// = attend_backward, bit for bit, on a dlookups that holds zeros (as backward's does: each
// query, key and value is written once, not added to).
inline void attend_backward_fast(float* dlookups, const float* dfound, const float* weights, const float* lookups,
                                 int T) {
    const float scale = 1.0f / std::sqrt(float(SIZE));
    float by_key[SEATS * SEATS];   // one head's weights [s][t]: eight letters t side by side are one load
    float dscores[SEATS * SEATS];  // [s][t] for one head
    for (int h = 0; h < HEADS; h++) {
        // The tape's [t][s] into by_key, eight by eight, transposed: every block
        // on or below the diagonal (those above it hold 0 and are never read).
        for (int t0 = 0; t0 < T; t0 += LANES)
            for (int s0 = 0; s0 <= t0; s0 += LANES) {
                Lanes block[LANES];
                for (int l = 0; l < LANES; l++)
                    block[l] = t0 + l < T ? load_row(weights + (h * T + t0 + l) * T, T, s0) : same_lanes(0.0f);
                transpose_lanes(block);  // block[j]: key s0 + j's weights for letters t0 .. t0+7
                for (int j = 0; j < LANES && s0 + j < T; j++) store_lanes(by_key + (s0 + j) * SEATS + t0, block[j]);
            }
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
                mixed += load_lanes(by_key + s * SEATS + t0) * dot;
            }
            Lanes dq[SIZE];
            for (int i = 0; i < SIZE; i++) dq[i] = same_lanes(0.0f);
            for (int s = 0; s <= last; s++) {
                const Lanes row = load_lanes(by_key + s * SEATS + t0);
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
        for (; s0 + 4 <= T; s0 += 4) attend_backward_keys<4>(dlookups, dfound, by_key, dscores, lookups, h, s0, T);
        for (; s0 < T; s0++) attend_backward_keys<1>(dlookups, dfound, by_key, dscores, lookups, h, s0, T);
    }
}

// ===========================================================================
// GELU and softmax

// = gelu_forward, bit for bit, EXP_BUNCH Lanes at a time, so their exps run side by side.
inline void gelu_forward_fast(float* fired, float* share, const float* hidden, int n) {
    int i = 0;
    for (; i + EXP_BUNCH * LANES <= n; i += EXP_BUNCH * LANES) {
        Lanes e[EXP_BUNCH];
        for (int j = 0; j < EXP_BUNCH; j++) {
            const Lanes x = load_lanes(hidden + i + j * LANES);
            e[j] = -2.0f * GELU_SCALE * (x + GELU_CUBIC * x * x * x);  // gelu_forward's minus_2u
        }
        exp_lanes<EXP_BUNCH>(e);
        for (int j = 0; j < EXP_BUNCH; j++) {
            const Lanes s = 1.0f / (1.0f + e[j]);
            store_lanes(share + i + j * LANES, s);
            store_lanes(fired + i + j * LANES, load_lanes(hidden + i + j * LANES) * s);
        }
    }
    gelu_forward(fired + i, share + i, hidden + i, n - i);
}

// = gelu_backward, bit for bit, eight at a time.
inline void gelu_backward_fast(float* dhidden, const float* dfired, const float* hidden, const float* share, int n) {
    int i = 0;
    for (; i + LANES <= n; i += LANES) {
        const Lanes x = load_lanes(hidden + i), s = load_lanes(share + i);
        const Lanes du = 2.0f * GELU_SCALE * (1.0f + 3.0f * GELU_CUBIC * x * x);
        store_lanes(dhidden + i, load_lanes(dfired + i) * (s + x * s * (1.0f - s) * du));
    }
    gelu_backward(dhidden + i, dfired + i, hidden + i, share + i, n - i);
}

// = softmax_forward, bit for bit, eight rows at a time, one row in each lane: column[v] holds
// logit v of the eight rows, so each row's largest, exps, sum and shares are
// its own lane's, in the same order.
inline void softmax_forward_fast(float* probs, float* biggest, float* total, const float* logits, int T, int V) {
    V = std::max(V, 1);  // V >= 2 always; saying so shows the compiler by_column[0] is written
    for (int t0 = 0; t0 < T; t0 += LANES) {
        const int rows = std::min(LANES, T - t0);
        float by_column[MAX_VOCABULARY][LANES];  // written a float at a time, read a Lanes at a time
        for (int v = 0; v < V; v++)
            for (int r = 0; r < LANES; r++) by_column[v][r] = r < rows ? logits[(t0 + r) * V + v] : 0.0f;
        Lanes top = load_lanes(by_column[0]);
        for (int v = 1; v < V; v++) top = max_lanes(load_lanes(by_column[v]), top);
        Lanes column[MAX_VOCABULARY];
        for (int v = 0; v < V; v++) column[v] = load_lanes(by_column[v]) - top;
        exp_lanes_all(column, V);
        Lanes sum = same_lanes(0.0f);
        for (int v = 0; v < V; v++) sum += column[v];
        for (int v = 0; v < V; v++) store_lanes(by_column[v], column[v] / sum);
        for (int r = 0; r < rows; r++) {
            for (int v = 0; v < V; v++) probs[(t0 + r) * V + v] = by_column[v][r];
            biggest[t0 + r] = top[r];
            total[t0 + r] = sum[r];
        }
    }
}

// ===========================================================================
// The model, forward and backward

// = block_forward, bit for bit. Every letter's key and value are made; what comes after
// attention is made for letters first .. T-1 only (forward_last_fast).
inline void block_forward_fast(const BlockKnobs& k, BlockTape& b, int T, int first = 0) {
    level_forward_fast(b.first.out, b.first.mean, b.first.rstd, b.notebooks, k.level1_gain, k.level1_bias, T);
    multiply_forward_fast<true>(b.lookups, b.first.out, k.lookup, T, WIDTH, 3 * WIDTH);
    attend_forward_fast(b.found, b.weights, b.lookups, T, first);
    const int rows = T - first, w = first * WIDTH, f = first * HIDDEN;  // where row `first` starts
    std::memcpy(b.middle + w, b.notebooks + w, sizeof(float) * rows * WIDTH);
    multiply_forward_fast(b.middle + w, b.found + w, k.write, rows, WIDTH, WIDTH);
    level_forward_fast(b.second.out + w, b.second.mean + first, b.second.rstd + first, b.middle + w, k.level2_gain,
                       k.level2_bias, rows);
    multiply_forward_fast<true>(b.hidden + f, b.second.out + w, k.network_hidden, rows, WIDTH, HIDDEN);
    gelu_forward_fast(b.fired + f, b.share + f, b.hidden + f, rows * HIDDEN);
    std::memcpy(b.out + w, b.middle + w, sizeof(float) * rows * WIDTH);
    multiply_forward_fast(b.out + w, b.fired + f, k.network_write, rows, HIDDEN, WIDTH);
}

// = forward: the same tape, bit for bit.
inline void forward_fast(const TinyModel& model, const int* ids, int T, Tape& tape) {
    const Knobs k = knobs(model);
    const int V = model.V;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward_fast(k.block[b], tape.block[b], T);
    level_forward_fast(tape.last.out, tape.last.mean, tape.last.rstd, tape.block[BLOCKS - 1].out, k.final_gain,
                       k.final_bias, T);
    multiply_forward_fast<true>(tape.logits, tape.last.out, k.output, T, WIDTH, V);
    softmax_forward_fast(tape.probs, tape.biggest, tape.total, tape.logits, T, V);
}

// = forward's last row, bit for bit: what a generator needs, the logits and
// probabilities after the last letter (row T-1), for about half the work.
// The last block still makes every letter's key and value, but only the last
// letter reads on through it. The last block's other rows, and the logits' and
// probs' other rows, are left as they were.
inline void forward_last_fast(const TinyModel& model, const int* ids, int T, Tape& tape) {
    const Knobs k = knobs(model);
    const int V = model.V, t = T - 1;
    tape.T = T;
    embed_forward(tape.block[0].notebooks, ids, k.token, k.position, T);
    for (int b = 0; b < BLOCKS; b++) block_forward_fast(k.block[b], tape.block[b], T, b == BLOCKS - 1 ? t : 0);
    level_forward_fast(tape.last.out + t * WIDTH, tape.last.mean + t, tape.last.rstd + t,
                       tape.block[BLOCKS - 1].out + t * WIDTH, k.final_gain, k.final_bias, 1);
    multiply_forward_fast<true>(tape.logits + t * V, tape.last.out + t * WIDTH, k.output, 1, WIDTH, V);
    softmax_forward_fast(tape.probs + t * V, tape.biggest + t, tape.total + t, tape.logits + t * V, 1, V);
}

// = block_backward, bit for bit; kt: the block's knobs transposed (transposed_knobs).
inline void block_backward_fast(const BlockKnobs& k, const BlockKnobs& kt, BlockKnobs& g, const BlockTape& b, float* d,
                                Scratch& s, int T) {
    // out = middle + fired · network_write
    std::memcpy(s.dmiddle, d, sizeof(float) * T * WIDTH);
    multiply_backward_fast<true>(s.dfired, g.network_write, d, b.fired, kt.network_write, T, HIDDEN, WIDTH);
    // fired = gelu(hidden); hidden = second · network_hidden
    gelu_backward_fast(s.dhidden, s.dfired, b.hidden, b.share, T * HIDDEN);
    multiply_backward_fast<true>(s.dlevel, g.network_hidden, s.dhidden, b.second.out, kt.network_hidden, T, WIDTH,
                                 HIDDEN);
    // second = level(middle)
    level_backward_fast(s.dmiddle, g.level2_gain, g.level2_bias, s.dlevel, b.middle, b.second.mean, b.second.rstd,
                        k.level2_gain, T);
    // middle = notebooks + found · write
    std::memcpy(d, s.dmiddle, sizeof(float) * T * WIDTH);
    multiply_backward_fast<true>(s.dfound, g.write, s.dmiddle, b.found, kt.write, T, WIDTH, WIDTH);
    // found, weights = attend(lookups)
    std::memset(s.dlookups, 0, sizeof(float) * T * 3 * WIDTH);
    attend_backward_fast(s.dlookups, s.dfound, b.weights, b.lookups, T);
    // lookups = first · lookup
    multiply_backward_fast<true>(s.dlevel, g.lookup, s.dlookups, b.first.out, kt.lookup, T, WIDTH, 3 * WIDTH);
    // first = level(notebooks)
    level_backward_fast(d, g.level1_gain, g.level1_bias, s.dlevel, b.notebooks, b.first.mean, b.first.rstd,
                        k.level1_gain, T);
}

// = backward: the same gradients, bit for bit. transposed: transposed_knobs(model),
// or nullptr to have it made here.
inline void backward_fast(const TinyModel& model, const Tape& tape, const int* ids, const int* targets, float scale,
                          float* grads, Scratch& s, const float* transposed = nullptr) {
    std::vector<float> made;
    if (transposed == nullptr) {
        made = transposed_knobs(model);
        transposed = made.data();
    }
    const Knobs k = knobs(model), kt = knob_views(const_cast<float*>(transposed), model.V);
    Knobs g = knob_views(grads, model.V);
    const int V = model.V, T = tape.T;
    for (int t = 0; t < T; t++) {
        for (int v = 0; v < V; v++) s.dlogits[t * V + v] = tape.probs[t * V + v] * scale;
        s.dlogits[t * V + targets[t]] = (tape.probs[t * V + targets[t]] - 1.0f) * scale;
    }
    multiply_backward_fast<true>(s.dlevel, g.output, s.dlogits, tape.last.out, kt.output, T, WIDTH, V);
    std::memset(s.dnotebooks, 0, sizeof(float) * T * WIDTH);
    level_backward_fast(s.dnotebooks, g.final_gain, g.final_bias, s.dlevel, tape.block[BLOCKS - 1].out, tape.last.mean,
                        tape.last.rstd, k.final_gain, T);
    for (int b = BLOCKS - 1; b >= 0; b--)
        block_backward_fast(k.block[b], kt.block[b], g.block[b], tape.block[b], s.dnotebooks, s, T);
    embed_backward(g.token, g.position, s.dnotebooks, ids, T);
}
