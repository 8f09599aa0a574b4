# Wrong: the scores divided by sqrt(d_k), which listing 109 (and so the exercise) does not do.
# Loses: book_input hidden_inputs own_softmax_and_blend printed_output
s|softmax_rows(matmul(a.Q, transpose(a.K)));|softmax_rows(scale(matmul(a.Q, transpose(a.K)), 1.0f / std::sqrt(float(a.K.cols))));|
