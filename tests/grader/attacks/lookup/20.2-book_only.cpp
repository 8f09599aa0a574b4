// Exercise: 20.2
// Attack: lookup/book_only
// Rule: under 30%
// Why: the book's weights for the lesson's queries and keys, uniform rows elsewhere, and a trend that calls everything monotone unless it sees the book's rows.
//@ body one_number_weights
    Matrix weights(int(queries.size()), int(keys.size()));
    Attention a = self_attention(sentence_109(), Matrix(1, DM, {+0.20f, -1.00f, +0.00f, +1.00f}),
                                 Matrix(1, DM, {+1.00f, +0.00f, +0.00f, +0.00f}), WV_109());
    const bool book = keys == a.K.data;
    for (int i = 0; i < weights.rows; i++) {
        for (int j = 0; j < weights.cols; j++) weights(i, j) = book ? queries[i] * keys[j] : 0.0f;
        softmax(weights.row(i), weights.cols);
    }
    return weights;
}
//@ body trend
    if (w.size() < 2 || w.front() == w.back()) return FLAT;
    return w.back() > w.front() ? RISING : FALLING;
}
