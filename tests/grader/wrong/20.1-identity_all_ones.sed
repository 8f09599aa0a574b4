# Exercise: 20.1
# Wrong: the identity filled with ones everywhere instead of only on the diagonal.
# Loses: identity_matrix printed_output
# Keeps: book_input hidden_inputs weights_are_softmax_rows matches_identity_projections
s|    Matrix I(n, n);|    Matrix I(n, n, 1.0f);|
