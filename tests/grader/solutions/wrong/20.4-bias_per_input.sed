# Wrong: one bias per input of the dense layer instead of one per output.
# Loses: book_sizes hidden_sizes printed_output
# Keeps: formula_in_each_size
s|return in \* out + (with_biases ? out : 0);|return in * out + (with_biases ? in : 0);|
