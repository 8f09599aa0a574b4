# Wrong: exp of the raw scores, the largest not subtracted: scores in the hundreds overflow.
# Loses: scores_in_the_hundreds
# Keeps: random_windows one_letter the_model printed_output
s|weights\[s\] = exp_f(weights\[s\] - biggest);|weights[s] = exp_f(weights[s]);|
