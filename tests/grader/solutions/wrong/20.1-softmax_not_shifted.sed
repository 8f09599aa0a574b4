# Wrong: its own softmax, exp of the raw scores without the row's largest subtracted: inf / inf once x_i . x_i passes about 88.
# Loses: hidden_inputs
# Keeps: book_input matches_identity_projections printed_output
s|        softmax(a.weights.row(i), X.rows);|        float* row = a.weights.row(i); float total = 0.0f; for (int j = 0; j < X.rows; j++) total += (row[j] = exp_f(row[j])); for (int j = 0; j < X.rows; j++) row[j] /= total;|
