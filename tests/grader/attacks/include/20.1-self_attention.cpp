// Exercise: 20.1
// Attack: include/self_attention
// Rule: rejected
// Why: the header's self_attention with identity projections is the whole exercise; the handout leaves it out (BEGIN LEFT OUT), so this does not build.
//@ body identity
    Matrix I(n, n);
    for (int i = 0; i < n; i++) I(i, i) = 1.0f;
    return I;
}
//@ body raw_dot_product_attention
    Matrix I = identity(X.cols);
    return self_attention(X, I, I, I);
}
