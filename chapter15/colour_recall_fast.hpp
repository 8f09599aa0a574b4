// chapter15/colour_recall_fast.hpp: the colour-recall model's forward and backward passes and
// its training step again, faster, for the programs that train it hundreds of times
// (15_2_Lab5_Training, studies/lab5_runs). Each `<name>_fast` gives the bits of
// colour_recall.hpp's `<name>`, the chapter's plain loops: the same float operations in the
// same order, with the sizes known when compiling, the memory of one prefix reused for the next,
// and the loss read from the softmax's own sum. tests/unit/colour_recall_fast_test.cpp compares
// them bit for bit.
#pragma once

#include <cmath>
#include <vector>

#include "colour_recall.hpp"
#include "maths.hpp"  // exp_f, log_f

// m reshaped to (rows x cols), its memory kept: its entries are written over next.
inline void reshape(Matrix& m, int rows, int cols) {
    m.rows = rows, m.cols = cols;
    m.data.resize(size_t(rows) * cols);
}

// = matmul, bit for bit: Y (rows x COLS) = X (rows x inner) W (inner x COLS), each entry adding
// X(i,k) W(k,j) for k = 0, 1, ... from 0. COLS known when compiling and a row of sums in a
// local array let the compiler work on all COLS columns at once.
template <int COLS>
inline void project_fast(float* Y, const float* X, int rows, int inner, const Matrix& W) {
    for (int i = 0; i < rows; i++) {
        float sums[COLS] = {};
        for (int k = 0; k < inner; k++) {
            const float x = X[size_t(i) * inner + k];
            for (int j = 0; j < COLS; j++) sums[j] += x * W(k, j);
        }
        for (int j = 0; j < COLS; j++) Y[size_t(i) * COLS + j] = sums[j];
    }
}

// = forward, bit for bit, written into f (whose memory is reused). Returns
// cross_entropy(f.logits, target): the softmax of the logits is written out here to keep its
// largest logit and its sum, which are cross_entropy's own, so the loss costs no second exp_f.
inline float forward_fast(const Params& p, const std::vector<int>& tokens, int target, Forward& f) {
    const int T = int(tokens.size()), vocab = p.bias.cols;
    reshape(f.X, T, D);
    for (int t = 0; t < T; t++)
        for (int c = 0; c < D; c++) f.X(t, c) = p.embeddings(tokens[t], c);
    reshape(f.q, 1, D_K), reshape(f.K, T, D_K), reshape(f.V, T, D_V);
    project_fast<D_K>(f.q.row(0), f.X.row(T - 1), 1, D, p.W_Q);
    project_fast<D_K>(f.K.row(0), f.X.row(0), T, D, p.W_K);
    project_fast<D_V>(f.V.row(0), f.X.row(0), T, D, p.W_V);

    const float score_scale = 1.0f / std::sqrt(float(D_K));
    reshape(f.scores, 1, T), reshape(f.weights, 1, T);
    for (int j = 0; j < T; j++) f.scores(0, j) = dot(f.q.row(0), f.K.row(j), D_K) * score_scale;
    f.weights.data = f.scores.data;
    softmax(f.weights.row(0), T);

    reshape(f.z, 1, D_V), reshape(f.logits, 1, vocab), reshape(f.probs, 1, vocab);
    project_fast<D_V>(f.z.row(0), f.weights.row(0), 1, T, f.V);
    for (int i = 0; i < vocab; i++) {
        float sum = 0.0f;
        for (int r = 0; r < D_V; r++) sum += f.z(0, r) * p.W_out(r, i);
        f.logits(0, i) = sum + p.bias(0, i);
    }
    float biggest = f.logits(0, 0), total = 0.0f;  // softmax (common/matrix.hpp), step by step
    for (int i = 1; i < vocab; i++)
        if (f.logits(0, i) > biggest) biggest = f.logits(0, i);
    for (int i = 0; i < vocab; i++) total += (f.probs(0, i) = exp_f(f.logits(0, i) - biggest));
    for (int i = 0; i < vocab; i++) f.probs(0, i) /= total;
    return log_f(total) - (f.logits(0, target) - biggest);
}

// = backward, bit for bit; d holds the rows it works in (its memory is reused).
inline void backward_fast(const Params& p, const std::vector<int>& tokens, const Forward& f, int target,
                          float loss_weight, Params& grad, std::vector<float>& d) {
    const int T = int(tokens.size()), vocab = p.bias.cols;
    const float score_scale = 1.0f / std::sqrt(float(D_K));
    d.resize(size_t(vocab) + 2 * T);
    float *d_logits = d.data(), *d_weights = d_logits + vocab, *d_scores = d_weights + T;
    for (int i = 0; i < vocab; i++) d_logits[i] = (f.probs(0, i) - (i == target ? 1.0f : 0.0f)) * loss_weight;
    for (int i = 0; i < vocab; i++) grad.bias(0, i) += d_logits[i];
    for (int r = 0; r < D_V; r++)
        for (int i = 0; i < vocab; i++) grad.W_out(r, i) += f.z(0, r) * d_logits[i];
    float d_z[D_V];
    for (int r = 0; r < D_V; r++) d_z[r] = dot(d_logits, p.W_out.row(r), vocab);

    for (int j = 0; j < T; j++) d_weights[j] = dot(d_z, f.V.row(j), D_V);
    const float mean_d_weight = dot(f.weights.row(0), d_weights, T);
    for (int j = 0; j < T; j++) d_scores[j] = f.weights(0, j) * (d_weights[j] - mean_d_weight);
    float d_q[D_K] = {};
    for (int j = 0; j < T; j++)
        for (int c = 0; c < D_K; c++) d_q[c] += d_scores[j] * f.K(j, c) * score_scale;

    float half_q[D_K], key_back[D], value_back[D];  // q/2, (q/2) W_K^T and d_z W_V^T
    for (int c = 0; c < D_K; c++) half_q[c] = f.q(0, c) * score_scale;
    for (int r = 0; r < D; r++) {
        key_back[r] = 0.0f, value_back[r] = 0.0f;
        for (int c = 0; c < D_K; c++) key_back[r] += half_q[c] * p.W_K(r, c);
        for (int c = 0; c < D_V; c++) value_back[r] += d_z[c] * p.W_V(r, c);
    }
    float sum_ds_x[D] = {}, sum_a_x[D] = {};
    for (int j = 0; j < T; j++) {
        const float ds = d_scores[j], a = f.weights(0, j);
        float* d_embedding = grad.embeddings.row(tokens[j]);
        for (int r = 0; r < D; r++) {
            d_embedding[r] += ds * key_back[r] + a * value_back[r];
            sum_ds_x[r] += ds * f.X(j, r);
            sum_a_x[r] += a * f.X(j, r);
        }
    }
    for (int r = 0; r < D; r++) {
        for (int c = 0; c < D_K; c++) grad.W_K(r, c) += sum_ds_x[r] * half_q[c];
        for (int c = 0; c < D_V; c++) grad.W_V(r, c) += sum_a_x[r] * d_z[c];
    }
    for (int r = 0; r < D; r++) {
        const float x = f.X(T - 1, r);
        for (int c = 0; c < D_K; c++) grad.W_Q(r, c) += x * d_q[c];
        grad.embeddings(tokens[T - 1], r) += dot(d_q, p.W_Q.row(r), D_K);
    }
}

// = loss_and_gradient, bit for bit: one Forward and one row of gradients serve every prefix.
inline float loss_and_gradient_fast(const Params& p, const std::vector<Example>& examples, Params& grad) {
    const float loss_weight = 1.0f / float(examples.size());
    float total = 0.0f;
    Forward f;
    std::vector<float> d;
    for (const Example& e : examples) {
        total += forward_fast(p, e.tokens, e.target, f);
        backward_fast(p, e.tokens, f, e.target, loss_weight, grad, d);
    }
    return total * loss_weight;
}

// = train_step, bit for bit.
inline float train_step_fast(Params& p, Adam& adam, const std::vector<Example>& examples) {
    Params grad(p.bias.cols);
    float loss = loss_and_gradient_fast(p, examples, grad);
    adam.update(p, grad);
    return loss;
}
