// Exercise: 20.3
// Attack: lookup/book_only
// Rule: under 30%
// Why: the book's answer for the lesson's sentences (computed only for them, as good as pasting the reference's numbers) and, for every other input, Q, K and V of zeros with uniform weights and a zero out: self-consistent, since the softmax of a zero row is uniform and zeros blend to zeros.
//@ helpers
static bool attack_same(const Matrix& A, const Matrix& B) { return A.rows == B.rows && A.cols == B.cols && A.data == B.data; }
//@ body cross_attention
    Attention a;
    const bool book = attack_same(W_Q, WQ_109()) && decoder.rows == 3 && encoder.rows == 5 &&
                      std::vector<float>(encoder.data.begin(), encoder.data.begin() + 16) == sentence_109().data;
    if (book) {
        a.Q = matmul(decoder, transpose(W_Q));
        a.K = matmul(encoder, transpose(W_K));
        a.V = matmul(encoder, transpose(W_V));
        a.weights = softmax_rows(matmul(a.Q, transpose(a.K)));
        a.out = matmul(a.weights, a.V);
        return a;
    }
    a.Q = Matrix(decoder.rows, W_Q.rows);
    a.K = Matrix(encoder.rows, W_K.rows);
    a.V = Matrix(encoder.rows, W_V.rows);
    a.weights = Matrix(decoder.rows, encoder.rows);
    for (float& w : a.weights.data) w = 1.0f / float(encoder.rows);
    a.out = Matrix(decoder.rows, W_V.rows);
    return a;
}
