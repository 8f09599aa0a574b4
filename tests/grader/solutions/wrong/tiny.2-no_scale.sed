# Wrong: the scores' gradient without the 1 / sqrt(SIZE) of the forward pass.
# Loses: keys queries printed_output
# Keeps: values adds_into
s|const float dscore = row\[s\] \* (dweight\[s\] - mixed) \* scale;|const float dscore = row[s] * (dweight[s] - mixed); (void)scale;|
