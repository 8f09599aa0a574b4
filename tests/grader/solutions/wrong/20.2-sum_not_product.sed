# Wrong: the score written as the sum of the query and the key instead of their product.
# Loses: book_input hidden_inputs monotone_in_the_key printed_output
# Keeps: trend_classification
s|weights(i, j) = queries\[i\] \* keys\[j\];|weights(i, j) = queries[i] + keys[j];|
