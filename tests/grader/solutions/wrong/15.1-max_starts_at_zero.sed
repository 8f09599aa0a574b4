# Wrong: the largest score is looked for starting from 0, not from the first score: right whenever a score is above 0, 0 / 0 when every score is below about -104.
# Loses: large_scores
# Keeps: book_example hidden_weights hidden_mix weights_are_shares printed_output
s|float biggest = weights.empty() ? 0.0f : weights\[0\];|float biggest = 0.0f;|
