# Wrong: its own softmax whose largest score starts at 0, not at the row's first: right whenever a visible score is above 0, 0 / 0 when every one is below about -104.
# Loses: hidden_weights
# Keeps: mask_entries book_wear_row weights_properties no_peeking printed_output
s|    return softmax_rows(add_causal_mask(scores));|    Matrix A = add_causal_mask(scores); for (int i = 0; i < A.rows; i++) { float biggest = 0.0f, total = 0.0f; for (int j = 0; j < A.cols; j++) biggest = A(i, j) > biggest ? A(i, j) : biggest; for (int j = 0; j < A.cols; j++) total += (A(i, j) = exp_f(A(i, j) - biggest)); for (int j = 0; j < A.cols; j++) A(i, j) /= total; } return A;|
