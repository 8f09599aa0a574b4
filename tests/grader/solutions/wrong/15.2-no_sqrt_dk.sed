# Wrong: the scores not divided by sqrt(d_k).
# Loses: hidden_weights printed_output
# Keeps: mask_entries book_wear_row weights_properties no_peeking
s|scale(matmul(Q, transpose(K)), 1.0f / std::sqrt(float(Q.cols)))|matmul(Q, transpose(K))|
