# Exercise: 20.1
# Right: its own softmax whose largest score starts at 0, not at the row's first: wrong elsewhere, but here every row holds x_i . x_i, which is never below 0, so the largest is the same.
s|        softmax(a.weights.row(i), X.rows);|        float* row = a.weights.row(i); float biggest = 0.0f, total = 0.0f; for (int j = 0; j < X.rows; j++) biggest = row[j] > biggest ? row[j] : biggest; for (int j = 0; j < X.rows; j++) total += (row[j] = exp_f(row[j] - biggest)); for (int j = 0; j < X.rows; j++) row[j] /= total;|
