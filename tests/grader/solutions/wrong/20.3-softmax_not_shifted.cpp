// Wrong: a softmax that exponentiates the raw scores, without the largest subtracted, overflows to inf/nan once scores pass ~88.
//@ body cross_attention
    Attention a;
    a.Q = matmul(decoder, transpose(W_Q));
    a.K = matmul(encoder, transpose(W_K));
    a.V = matmul(encoder, transpose(W_V));
    a.weights = matmul(a.Q, transpose(a.K));
    for (int i = 0; i < a.weights.rows; i++) {
        float total = 0.0f;
        for (int j = 0; j < a.weights.cols; j++) total += (a.weights(i, j) = exp_f(a.weights(i, j)));
        for (int j = 0; j < a.weights.cols; j++) a.weights(i, j) /= total;
    }
    a.out = matmul(a.weights, a.V);
    return a;
}
