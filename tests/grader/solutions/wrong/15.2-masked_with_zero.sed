# Wrong: masked scores set to 0 instead of -infinity, the mistake 15.5.1 warns about (e^0 = 1 still counts).
# Loses: mask_entries book_wear_row hidden_weights weights_properties printed_output
# Keeps: no_peeking
s|masked(i, j) = -std::numeric_limits<float>::infinity();|masked(i, j) = 0.0f;|
