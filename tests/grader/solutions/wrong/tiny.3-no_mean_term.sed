# Wrong: din without the term for the row's mean (only the spread's).
# Loses: din printed_output
# Keeps: dgain dbias adds_into
s|(dnorm - dnorm_mean - norm \* dnorm_norm_mean)|(dnorm - norm * dnorm_norm_mean)|
