# Wrong: the gradient for Q taken through the transposed scores, d Q = d scores^T K.
# Loses: book_input hidden_inputs finite_differences printed_output
s|return matmul(d_scores, K); }|return matmul(transpose(d_scores), K); }|
