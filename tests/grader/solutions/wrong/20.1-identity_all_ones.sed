# Wrong: the identity filled with ones everywhere instead of only on the diagonal.
# Loses: matches_identity_projections printed_output
# Keeps: book_input hidden_inputs
s|    Matrix I(n, n);|    Matrix I(n, n, 1.0f);|
