// Right: the mask as -1e30 rather than -infinity, which section 15.5.2 allows (softmax gives it no weight), and causal_weights with its own loops in another order.
//@ body add_causal_mask
    Matrix masked = scores;
    for (int j = 0; j < masked.cols; j++)
        for (int i = 0; i < j && i < masked.rows; i++) masked(i, j) = -1e30f;
    return masked;
}
//@ body causal_weights
    Matrix scores(Q.rows, K.rows);
    const float scale = 1.0f / std::sqrt(float(Q.cols));
    for (int i = 0; i < Q.rows; i++)
        for (int j = 0; j < K.rows; j++) scores(i, j) = dot(Q.row(i), K.row(j), Q.cols) * scale;
    return softmax_rows(add_causal_mask(scores));
}
