# Wrong: the sign flipped in the softmax's backward step.
# Loses: book_input hidden_inputs finite_differences printed_output
s|d_scores(i, j) = weights(i, j) \* (d_weights(i, j) - through_row);|d_scores(i, j) = weights(i, j) * (through_row - d_weights(i, j));|
