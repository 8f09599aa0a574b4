# Wrong: the scores not multiplied by 1 / sqrt(SIZE).
# Loses: hidden_found hidden_weights the_model printed_output
# Keeps: no_peeking
s|row\[s\] = dot \* scale;|row[s] = dot; (void)scale;|
