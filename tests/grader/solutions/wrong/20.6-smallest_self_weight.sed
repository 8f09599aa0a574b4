# Wrong: largest_self_weight() keeps the smallest diagonal entry.
# Loses: book_input hidden_inputs answers_fit_the_matrix printed_output
s|if (weights(i, i) > weights(largest, largest)) largest = i;|if (weights(i, i) < weights(largest, largest)) largest = i;|
