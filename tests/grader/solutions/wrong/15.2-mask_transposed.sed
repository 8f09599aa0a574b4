# Wrong: the mask on the wrong side of the diagonal (earlier keys masked, later ones kept).
# Loses: mask_entries book_wear_row hidden_weights weights_properties no_peeking printed_output
# Keeps:
s|for (int j = i + 1; j < masked.cols; j++)|for (int j = 0; j < i; j++)|
