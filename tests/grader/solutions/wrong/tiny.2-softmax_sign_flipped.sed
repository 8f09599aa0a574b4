# Wrong: the softmax's backward with its sign flipped.
# Loses: keys queries printed_output
# Keeps: values adds_into
s|const float dscore = row\[s\] \* (dweight\[s\] - mixed) \* scale;|const float dscore = row[s] * (mixed - dweight[s]) * scale;|
