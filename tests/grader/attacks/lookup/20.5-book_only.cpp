// Exercise: 20.5
// Attack: lookup/book_only
// Rule: under 30%
// Why: the gradient for listing 109's sentence (what the lesson and the book show), zeros of W_Q's shape for every other input.
//@ body backward_W_Q
    Matrix zeros(a.Q.cols, X.cols);
    if (!(X.rows == sentence_109().rows && X.data == sentence_109().data)) return zeros;
    Matrix d_weights = matmul(d_out, transpose(a.V));
    Matrix d_scores(a.weights.rows, a.weights.cols);
    for (int i = 0; i < a.weights.rows; i++) {
        float through_row = dot(a.weights.row(i), d_weights.row(i), a.weights.cols);
        for (int j = 0; j < a.weights.cols; j++) d_scores(i, j) = a.weights(i, j) * (d_weights(i, j) - through_row);
    }
    return matmul(transpose(matmul(d_scores, a.K)), X);
}
