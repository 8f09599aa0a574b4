// Exercise: 20.6
// Attack: lookup/book_only
// Rule: under 30%
// Why: the answers for listing 109's weights (the lesson's matrix), and for every other matrix the plausible guess that each row looks at itself, every position is mostly self, and the first has the largest self-weight.
//@ helpers
static bool attack_is_book(const Matrix& W) {
    const Matrix book = self_attention(sentence_109(), WQ_109(), WK_109(), WV_109()).weights;
    return W.rows == book.rows && W.cols == book.cols && W.data == book.data;
}
//@ body strongest
    if (!attack_is_book(weights)) return i;
    int best = 0;
    for (int j = 1; j < weights.cols; j++)
        if (weights(i, j) > weights(i, best)) best = j;
    return best;
}
//@ body mostly_self
    std::vector<int> positions;
    for (int i = 0; i < weights.rows; i++)
        if (!attack_is_book(weights) || weights(i, i) > mostly) positions.push_back(i);
    return positions;
}
//@ body largest_self_weight
    if (!attack_is_book(weights)) return 0;
    int largest = 0;
    for (int i = 1; i < weights.rows; i++)
        if (weights(i, i) > weights(largest, largest)) largest = i;
    return largest;
}
