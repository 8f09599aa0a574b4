// Exercise: 20.3
// Attack: lookup/book_only
// Rule: under 30%
// Why: the book's answer for the lesson's sentences (computed only for them, as good as pasting the reference's numbers) and uniform weights of the right shapes, with Q, K, V right, for every other input.
//@ helpers
static bool attack_same(const Matrix& A, const Matrix& B) { return A.rows == B.rows && A.cols == B.cols && A.data == B.data; }
//@ body cross_attention
    Attention a;
    a.Q = matmul(decoder, transpose(W_Q));
    a.K = matmul(encoder, transpose(W_K));
    a.V = matmul(encoder, transpose(W_V));
    const bool book = attack_same(W_Q, WQ_109()) && decoder.rows == 3 && encoder.rows == 5 &&
                      std::vector<float>(encoder.data.begin(), encoder.data.begin() + 16) == sentence_109().data;
    a.weights = Matrix(decoder.rows, encoder.rows);
    for (float& w : a.weights.data) w = 1.0f / float(encoder.rows);
    if (book) a.weights = softmax_rows(matmul(a.Q, transpose(a.K)));
    a.out = matmul(a.weights, a.V);
    return a;
}
