# Wrong: exp of the raw scores, without subtracting the largest first: overflows for large scores.
# Loses: large_scores printed_output
# Keeps: book_example hidden_weights hidden_mix weights_are_shares
s|total += (w = exp_f(w - biggest));|total += (w = exp_f(w));|
