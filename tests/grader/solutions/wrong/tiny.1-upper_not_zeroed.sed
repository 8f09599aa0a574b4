# Wrong: the weights above the diagonal left as the buffer held them.
# Loses: hidden_weights the_model
# Keeps: hidden_found no_peeking printed_output
/for (int s = t + 1; s < T; s++) row\[s\] = 0.0f;/d
