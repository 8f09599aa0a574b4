# Wrong: strongest() reads down column i instead of along row i.
# Loses: book_input hidden_inputs answers_fit_the_matrix printed_output
s|if (weights(i, j) > weights(i, best)) best = j;|if (weights(j, i) > weights(best, i)) best = j;|
