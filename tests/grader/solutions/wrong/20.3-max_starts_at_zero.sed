# Wrong: its own softmax whose largest score starts at 0, not at the row's first: right whenever a row has a score above 0, 0 / 0 when every one is below about -104.
# Loses: large_scores
# Keeps: book_input hidden_inputs own_softmax_and_blend printed_output
s|    a.weights = softmax_rows(matmul(a.Q, transpose(a.K)));  // (n_dec x n_enc)|    a.weights = matmul(a.Q, transpose(a.K)); for (int i = 0; i < a.weights.rows; i++) { float biggest = 0.0f, total = 0.0f; for (int j = 0; j < a.weights.cols; j++) biggest = a.weights(i, j) > biggest ? a.weights(i, j) : biggest; for (int j = 0; j < a.weights.cols; j++) total += (a.weights(i, j) = exp_f(a.weights(i, j) - biggest)); for (int j = 0; j < a.weights.cols; j++) a.weights(i, j) /= total; }|
