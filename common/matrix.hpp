// common/matrix.hpp: the one small matrix every lesson shares.
//
// A Matrix is rows x cols floats stored row by row. Everything is done in
// float, one plain loop per operation, in an order you can read off the code:
// the lessons' printed digits depend on that order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "maths.hpp"  // exp_f, log_d, cos_turns

struct Matrix {
    int rows = 0, cols = 0;
    std::vector<float> data;  // row-major: element (i, j) is data[i * cols + j]

    Matrix() = default;
    Matrix(int r, int c, float fill = 0.0f) : rows(r), cols(c), data(size_t(r) * c, fill) {}
    // Values written out row by row, as a listing writes its data.
    Matrix(int r, int c, std::initializer_list<float> values) : rows(r), cols(c), data(values) {
        if (data.size() != size_t(r) * c) throw std::invalid_argument("Matrix: wrong number of values");
    }

    float& operator()(int i, int j) { return data[size_t(i) * cols + j]; }
    float operator()(int i, int j) const { return data[size_t(i) * cols + j]; }
    float* row(int i) { return &data[size_t(i) * cols]; }
    const float* row(int i) const { return &data[size_t(i) * cols]; }
};

// ---------------------------------------------------------------------------
// Arithmetic

// C = A B. Each entry starts at 0 and adds A(i,k) * B(k,j) for k = 0, 1, ...
inline Matrix matmul(const Matrix& A, const Matrix& B) {
    if (A.cols != B.rows) throw std::invalid_argument("matmul: inner sizes differ");
    Matrix C(A.rows, B.cols);  // (A.rows x B.cols)
    for (int i = 0; i < A.rows; i++)
        for (int j = 0; j < B.cols; j++) {
            float sum = 0.0f;
            for (int k = 0; k < A.cols; k++) sum += A(i, k) * B(k, j);
            C(i, j) = sum;
        }
    return C;
}

inline Matrix transpose(const Matrix& A) {
    Matrix T(A.cols, A.rows);  // (A.cols x A.rows)
    for (int i = 0; i < A.rows; i++)
        for (int j = 0; j < A.cols; j++) T(j, i) = A(i, j);
    return T;
}

inline Matrix add(const Matrix& A, const Matrix& B) {
    if (A.rows != B.rows || A.cols != B.cols) throw std::invalid_argument("add: shapes differ");
    Matrix C = A;
    for (size_t i = 0; i < C.data.size(); i++) C.data[i] += B.data[i];
    return C;
}

inline Matrix scale(const Matrix& A, float s) {
    Matrix C = A;
    for (float& x : C.data) x *= s;
    return C;
}

inline float dot(const float* a, const float* b, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += a[i] * b[i];
    return sum;
}

// ---------------------------------------------------------------------------
// Softmax and the causal mask

// In place. Subtracting the largest entry first keeps exp() from overflowing;
// it does not change the result, since the same factor cancels above and below.
inline void softmax(float* x, int n) {
    float biggest = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > biggest) biggest = x[i];
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
        x[i] = exp_f(x[i] - biggest);
        total += x[i];
    }
    for (int i = 0; i < n; i++) x[i] /= total;
}

// Each row on its own: row i is query i's weights over the keys.
inline Matrix softmax_rows(const Matrix& S) {
    Matrix A = S;
    for (int i = 0; i < A.rows; i++) softmax(A.row(i), A.cols);
    return A;
}

// BEGIN LEFT OUT exercise 15.2: add(scores, causal_mask(T)) would be its whole answer
// M(i, j) = 0 where key j <= query i, -infinity where j is later.
inline Matrix causal_mask(int T) {
    Matrix M(T, T);  // (T x T)
    for (int i = 0; i < T; i++)
        for (int j = i + 1; j < T; j++) M(i, j) = -std::numeric_limits<float>::infinity();
    return M;
}
// END LEFT OUT

// ---------------------------------------------------------------------------
// Printing

// Every entry with one printf format, e.g. "%7.3f"; rows indented by `indent`.
inline void print_matrix(const Matrix& A, const char* format = "%8.3f", const char* indent = "  ") {
    for (int i = 0; i < A.rows; i++) {
        std::fputs(indent, stdout);
        for (int j = 0; j < A.cols; j++) std::printf(format, A(i, j));
        std::fputc('\n', stdout);
    }
}

// A table with a label on every row and column, e.g. words over a weight matrix.
inline void print_labelled(const Matrix& A, const std::vector<std::string>& row_labels,
                           const std::vector<std::string>& col_labels, const char* format = "%8.3f",
                           int label_width = 8) {
    std::printf("  %*s", label_width, "");
    for (int j = 0; j < A.cols; j++) std::printf("%8s", col_labels[j].c_str());
    std::printf("\n");
    for (int i = 0; i < A.rows; i++) {
        std::printf("  %-*s", label_width, row_labels[i].c_str());
        for (int j = 0; j < A.cols; j++) std::printf(format, A(i, j));
        std::printf("\n");
    }
}

// ---------------------------------------------------------------------------
// Printing as PyTorch does: print(t) of a 1-D or 2-D float tensor, by the rules of
// torch/_tensor_str.py (_Formatter) with the default options: 4 decimals, 80 columns,
// more than 1000 entries summarised to the first and last 3 along each dimension.

// One format for every entry of a tensor, so that its columns line up.
struct TensorStyle {
    bool whole = true;  // every finite entry is a whole number: written "1."
    bool sci = false;   // written "1.0000e-05"; otherwise with 4 decimals, "0.8808"
    int width = 1;      // entries are right-aligned to the widest finite nonzero one

    // The style is chosen from the finite nonzero entries only.
    explicit TensorStyle(const std::vector<float>& shown) {
        double smallest = std::numeric_limits<double>::infinity(), largest = 0;  // in double, as PyTorch compares them
        for (float x : shown) {
            if (!std::isfinite(x) || x == 0) continue;
            smallest = std::min(smallest, std::fabs(double(x)));
            largest = std::max(largest, std::fabs(double(x)));
            if (x != std::ceil(x)) whole = false;
        }
        if (largest == 0) return;  // nothing finite and nonzero: "0.", "inf", width 1
        sci = largest / smallest > 1000.0 || largest > 1.0e8 || (!whole && smallest < 1.0e-4);
        for (float x : shown)
            if (std::isfinite(x) && x != 0 && int(bare(x).size()) > width) width = int(bare(x).size());
    }
    // x without padding. Python writes any NaN as "nan", so this does too.
    std::string bare(float x) const {
        if (std::isnan(x)) return "nan";
        if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
        char text[64];
        std::snprintf(text, sizeof text, sci ? "%.4e" : whole ? "%.0f." : "%.4f", double(x));
        return text;
    }
    std::string format(float x) const {
        std::string text = bare(x);
        return std::string(text.size() < size_t(width) ? width - text.size() : 0, ' ') + text;
    }
};

// The indices printed along a dimension of n: all, or the first and last 3.
inline std::vector<int> tensor_kept(int n, bool summarise) {
    std::vector<int> kept;
    for (int i = 0; i < n; i++)
        if (!summarise || n <= 6 || i < 3 || i >= n - 3) kept.push_back(i);
    return kept;
}

// "[a, b, ...]" for n entries, wrapped to 80 columns; `indent` = columns before the "[".
inline std::string tensor_row(const float* x, int n, bool summarise, const TensorStyle& style, int indent) {
    std::vector<std::string> items;
    for (int j : tensor_kept(n, summarise)) {
        if (summarise && n > 6 && j == n - 3) items.push_back(" ...");
        items.push_back(style.format(x[j]));
    }
    size_t per_line = std::max(1, (80 - indent) / (style.width + 2));
    std::string text = "[";
    for (size_t k = 0; k < items.size(); k++) {
        if (k > 0) text += k % per_line ? ", " : ",\n" + std::string(indent + 1, ' ');
        text += items[k];
    }
    return text + "]";
}

// The whole "tensor(...)" text of a (rows x cols) block; a 1-D tensor is one row.
inline std::string tensor_text(const float* x, int rows, int cols, bool one_dim) {
    if (rows * cols == 0)
        return one_dim ? "tensor([])" : "tensor([], size=(" + std::to_string(rows) + ", " + std::to_string(cols) + "))";
    bool summarise = rows * cols > 1000;
    std::vector<float> shown;  // the entries printed, which alone choose the style
    for (int i : tensor_kept(rows, summarise))
        for (int j : tensor_kept(cols, summarise)) shown.push_back(x[size_t(i) * cols + j]);
    TensorStyle style(shown);
    if (one_dim) return "tensor(" + tensor_row(x, cols, summarise, style, 7) + ")";
    std::string text = "tensor([";
    for (int i : tensor_kept(rows, summarise)) {
        if (i > 0) text += ",\n        ";
        if (summarise && rows > 6 && i == rows - 3) text += "...,\n        ";
        text += tensor_row(x + size_t(i) * cols, cols, summarise, style, 8);
    }
    return text + "])";
}

inline std::string tensor_str(const float* x, int n) { return tensor_text(x, 1, n, true); }
inline std::string tensor_str(const std::vector<float>& x) { return tensor_text(x.data(), 1, int(x.size()), true); }
inline std::string tensor_str(const Matrix& A) { return tensor_text(A.data.data(), A.rows, A.cols, false); }
// Like print(t) in Python: the text, then a newline.
inline void print_tensor(const float* x, int n) { std::printf("%s\n", tensor_str(x, n).c_str()); }
inline void print_tensor(const std::vector<float>& x) { std::printf("%s\n", tensor_str(x).c_str()); }
inline void print_tensor(const Matrix& A) { std::printf("%s\n", tensor_str(A).c_str()); }

// ---------------------------------------------------------------------------
// Random numbers
//
// Our own generator (SplitMix64), so a seed gives the same numbers with every
// compiler and standard library; rand() and std::normal_distribution do not.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}

    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1), from the top 24 bits: exactly representable as a float.
    float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); }
    // Uniform whole number in [0, n).
    int below(int n) { return int(next() % uint64_t(n)); }
    // Standard normal, by Box-Muller in double, then rounded to float.
    float normal() {
        double u1 = (double(next() >> 11) + 1.0) * (1.0 / 9007199254740992.0);  // (0, 1]
        double u2 = double(next() >> 11) * (1.0 / 9007199254740992.0);          // [0, 1)
        return float(std::sqrt(-2.0 * log_d(u1)) * cos_turns(u2));
    }
};

// A (rows x cols) matrix of normal samples times `std_dev`.
inline Matrix random_normal(int rows, int cols, Rng& rng, float std_dev = 1.0f) {
    Matrix A(rows, cols);
    for (float& x : A.data) x = rng.normal() * std_dev;
    return A;
}
