// Exercise: 15.2
// Attack: include/causal_mask
// Rule: rejected
// Why: add(scores, causal_mask(T)) from matrix.hpp is the whole of add_causal_mask; the handout leaves causal_mask out (BEGIN LEFT OUT), so this does not build.
//@ body add_causal_mask
    return add(scores, causal_mask(scores.rows));
}
//@ body causal_weights
    Matrix scores = scale(matmul(Q, transpose(K)), 1.0f / std::sqrt(float(Q.cols)));
    return softmax_rows(add_causal_mask(scores));
}
