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

static Attention cross_attention(const Matrix& decoder, const Matrix& encoder, const Matrix& W_Q, const Matrix& W_K,
                                 const Matrix& W_V) {
    Attention A;
    A.Q = matmul(decoder, transpose(W_Q));
    A.K = matmul(encoder, transpose(W_K));
    A.V = matmul(encoder, transpose(W_V));
    // softmax: exponentiate each score and divide by the row total
    Matrix S = matmul(A.Q, transpose(A.K));
    for (int i = 0; i < S.rows; i++) {
        float total = 0.0f;
        for (int j = 0; j < S.cols; j++) {
            S(i, j) = std::exp(S(i, j));
            total += S(i, j);
        }
        for (int j = 0; j < S.cols; j++) S(i, j) /= total;
    }
    A.weights = S;
    A.out = matmul(S, A.V);
    return A;
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
