# Wrong: each query scored against itself, x_i . x_i, instead of against every x_j.
# Loses: book_input hidden_inputs matches_identity_projections printed_output
s|a.weights(i, j) = dot(X.row(i), X.row(j), X.cols);|a.weights(i, j) = dot(X.row(i), X.row(i), X.cols);|
