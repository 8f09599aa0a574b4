# Wrong: trend() compares with >= and <=, so a flat row counts as rising.
# Loses: trend_classification printed_output
# Keeps: book_input hidden_inputs monotone_in_the_key
s|up = up \&\& w\[j\] > w\[j - 1\];|up = up \&\& w[j] >= w[j - 1];|
s|down = down \&\& w\[j\] < w\[j - 1\];|down = down \&\& w[j] <= w[j - 1];|
