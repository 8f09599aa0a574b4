# Wrong: the exponentials used as weights, never divided by their sum.
# Loses: book_example hidden_weights weights_are_shares printed_output
# Keeps: hidden_mix
s|    for (float\& w : weights) w /= total;|    (void)total;|
