# Wrong: its own softmax, exp of the raw masked scores without the row's largest subtracted: inf / inf once scores pass about 88.
# Loses: hidden_weights
# Keeps: mask_entries book_wear_row weights_properties no_peeking printed_output
s|    return softmax_rows(add_causal_mask(scores));|    Matrix A = add_causal_mask(scores); for (int i = 0; i < A.rows; i++) { float total = 0.0f; for (int j = 0; j < A.cols; j++) total += (A(i, j) = exp_f(A(i, j))); for (int j = 0; j < A.cols; j++) A(i, j) /= total; } return A;|
