# Wrong: W_K forgotten, counting only W_Q and W_V.
# Loses: book_sizes hidden_sizes formula_in_each_size printed_output
s|return (2 \* d_k + d_v) \* d_model;|return (d_k + d_v) * d_model;|
