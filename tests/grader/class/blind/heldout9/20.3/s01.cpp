// ex3_Cross_Attention.cpp: 3 decoder positions attend over 5 encoder positions.
// Book section: 20.9 (exercise 3)
// Exercise: 20.3
//
// Cross-attention is listing 109's function with the queries taken from one
// sequence and the keys and values from another (20.7). The weight matrix is
// then (decoder x encoder), 3 x 5, and there is one output per decoder position.
//
// You write:
//   Attention cross_attention(const Matrix& decoder, const Matrix& encoder,
//                             const Matrix& W_Q, const Matrix& W_K, const Matrix& W_V);
// decoder is (n_dec x d_model) and encoder (n_enc x d_model). W_Q and W_K are
// (d_k x d_model), W_V is (d_v x d_model), stored one row per output component
// as in listing 109, so a projection is X W^T. Fill all five fields of the
// Attention (attention109.hpp): Q from the decoder, K and V from the encoder,
// weights (n_dec x n_enc) with row i the softmax of query i's dot products with
// every key (no 1/sqrt(d_k), as in listing 109), and out (n_dec x d_v), row i
// the blend of the values by row i's weights. matrix.hpp has matmul,
// transpose and softmax_rows. The grader calls it on this file's sentences and
// on random sequences of random sizes, some with scores up to 1000: the softmax
// must subtract each row's largest score before exp (softmax_rows does; a
// softmax of your own must too). main prints the lesson.
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "attention109.hpp"

constexpr int DEC = 3;  // decoder positions: the queries

// A copy of A with one more row at the bottom.
static Matrix append_row(Matrix A, std::initializer_list<float> row) {
    A.data.insert(A.data.end(), row);
    A.rows++;
    return A;
}

using Flat = std::vector<double>;
#define IX(r, c, w) ((size_t)(r) * (w) + (c))

// X W^T in double, flat row-major
static Flat projectRows(const Matrix& X, const Matrix& W)
{
    Flat out(size_t(X.rows) * W.rows, 0.0);
    size_t i = 0;
    while (i < size_t(X.rows)) {
        for (int o = 0; o < W.rows; o++) {
            int m = 0;
            while (m < X.cols) { out[IX(i, o, W.rows)] += double(X(int(i), m)) * double(W(o, m)); m++; }
        }
        i++;
    }
    return out;
}

static Matrix toMatrix(const Flat& f, int rows, int cols)
{
    Matrix M(rows, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) M(i, j) = float(f[IX(i, j, cols)]);
    return M;
}

// weights of one query row: scores against every key, then softmax
static void weightRow(const Flat& q, const Flat& k, size_t i, int nk, int dk, Flat& w)
{
    for (int j = 0; j < nk; j++) {
        double s = 0.0;
        for (int c = 0; c < dk; c++) s += q[IX(i, c, dk)] * k[IX(j, c, dk)];
        w[IX(i, j, nk)] = s;
    }
    double peak = w[IX(i, 0, nk)];
    for (int j = 1; j < nk; j++) peak = std::max(peak, w[IX(i, j, nk)]);
    double sum = 0.0;
    for (int j = 0; j < nk; j++) sum += (w[IX(i, j, nk)] = exp_d(w[IX(i, j, nk)] - peak));
    for (int j = 0; j < nk; j++) w[IX(i, j, nk)] /= sum;
}

// output of one query row: its weights times the values
static void blendRow(const Flat& w, const Flat& v, size_t i, int nk, int dv, Flat& o)
{
    for (int j = 0; j < nk; j++)
        for (int c = 0; c < dv; c++) o[IX(i, c, dv)] += w[IX(i, j, nk)] * v[IX(j, c, dv)];
}

static Attention cross_attention(const Matrix& decoder, const Matrix& encoder, const Matrix& W_Q, const Matrix& W_K,
                                 const Matrix& W_V)
{
    const int nq = decoder.rows, nk = encoder.rows, dk = W_Q.rows, dv = W_V.rows;
    Flat k = projectRows(encoder, W_K), q = projectRows(decoder, W_Q), v = projectRows(encoder, W_V);
    Flat w(size_t(nq) * nk), o(size_t(nq) * dv, 0.0);
    size_t i = 0;
    while (i < size_t(nq)) { weightRow(q, k, i, nk, dk, w); blendRow(w, v, i, nk, dv, o); i++; }
    Attention res;
    res.out = toMatrix(o, nq, dv);
    res.weights = toMatrix(w, nq, nk);
    res.Q = toMatrix(q, nq, dk);
    res.K = toMatrix(k, nk, W_K.rows);
    res.V = toMatrix(v, nk, dv);
    return res;
}

int main() {
    // The encoder reads listing 109's sentence and one more word (embedding made up).
    Matrix encoder = append_row(sentence_109(), {0.1f, -0.4f, 0.3f, 0.2f});  // (5 x DM)
    std::vector<std::string> encoder_words = words_109();
    encoder_words.push_back("today");
    // One line per row of the matrix: the formatter would run the numbers together.
    // clang-format off
    // The decoder has produced three positions of a translation so far, (DEC x DM).
    Matrix decoder(DEC, DM, {
         0.9f,  0.1f,  0.4f, -0.1f,  // le
         0.2f,  0.7f,  0.0f,  0.5f,  // chat
        -0.1f,  0.2f,  0.8f,  0.4f,  // assis
    });
    // clang-format on
    const std::vector<std::string> decoder_words = {"le", "chat", "assis"};

    // Queries from the decoder; keys and values from the encoder; listing 109's projections.
    Attention cross = cross_attention(decoder, encoder, WQ_109(), WK_109(), WV_109());

    std::printf("Cross-attention: %d decoder positions attend over %d encoder positions\n", decoder.rows, encoder.rows);
    std::printf("Queries from the decoder, keys and values from the encoder\n\n");
    std::printf("Attention weights [%d x %d], rows decoder query, cols encoder key\n\n", cross.weights.rows,
                cross.weights.cols);
    print_weights(cross.weights, decoder_words, encoder_words);

    std::printf("\nRow sums:");
    float worst = 0.0f;  // largest distance of a row sum from 1
    for (int i = 0; i < cross.weights.rows; i++) {
        float sum = 0.0f;
        for (int j = 0; j < cross.weights.cols; j++) sum += cross.weights(i, j);
        std::printf(" %.3f", sum);
        worst = std::fmax(worst, std::fabs(sum - 1.0f));
    }
    // No rows (the starter's empty weights) is not every row summing to 1.
    const bool has_rows = cross.weights.rows == decoder.rows && cross.weights.cols == encoder.rows;
    std::printf("\nEvery row sums to 1: %s\n", has_rows && worst < 1e-6f ? "yes" : "no");

    std::printf("\nOutput vectors, d_v=%d, one per decoder position\n\n", cross.out.cols);
    print_vectors(cross.out, decoder_words);
    return 0;
}
