# Wrong: the counts kept in an int: right for the lesson's sizes, wrapped past 2^31 for sizes near the lesson's limit of 100,000.
# Loses: hidden_sizes
# Keeps: book_sizes formula_in_each_size printed_output
s|    return (2 \* d_k + d_v) \* d_model;|    return int((2 * d_k + d_v) * d_model);|
s|    return in \* out + (with_biases ? out : 0);|    return int(in * out + (with_biases ? out : 0));|
