// Exercise: 20.1
// Attack: lookup/book_only
// Rule: under 30%
// Why: the identity right (it is one line), the book sentence's attention computed for that sentence alone, and uniform weights with the mean row elsewhere.
//@ body identity
    Matrix I(n, n);
    for (int i = 0; i < n; i++) I(i, i) = 1.0f;
    return I;
}
//@ body raw_dot_product_attention
    const bool book = X.rows == sentence_109().rows && X.data == sentence_109().data;
    Attention a;
    a.weights = Matrix(X.rows, X.rows);
    a.out = Matrix(X.rows, X.cols);
    if (book) {
        a.weights = softmax_rows(matmul(X, transpose(X)));
        a.out = matmul(a.weights, X);
        return a;
    }
    for (float& w : a.weights.data) w = 1.0f / float(X.rows);
    a.out = matmul(a.weights, X);
    return a;
}
