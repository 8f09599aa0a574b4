# Wrong: every head scores against the first head's numbers of each key.
# Loses: random_windows scores_in_the_hundreds the_model printed_output
# Keeps: one_letter
s|const float\* key = keys + s \* WIDTH + h \* SIZE;|const float* key = keys + s * WIDTH;|
