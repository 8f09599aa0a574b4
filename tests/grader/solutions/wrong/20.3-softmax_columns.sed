# Wrong: the softmax taken down each column (over the queries) instead of along each row.
# Loses: book_input hidden_inputs own_softmax_and_blend printed_output
s|a.weights = softmax_rows(matmul(a.Q, transpose(a.K)));|a.weights = transpose(softmax_rows(transpose(matmul(a.Q, transpose(a.K)))));|
