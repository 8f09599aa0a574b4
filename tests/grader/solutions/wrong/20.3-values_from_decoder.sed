# Wrong: the values taken from the decoder instead of the encoder.
# Loses: book_input hidden_inputs own_softmax_and_blend printed_output
s|a.V = matmul(encoder, transpose(W_V));|a.V = matmul(decoder, transpose(W_V));|
