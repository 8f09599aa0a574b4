# Exercise: tiny.3
# Wrong: din without the term for the row's mean (only the spread's).
# Loses: din printed_output
# Keeps: dgain dbias adds_into
s|(dnorm\[i\] - dnorm_mean - norm\[i\] \* dnorm_norm_mean)|(dnorm[i] - norm[i] * dnorm_norm_mean)|
s|dnorm_mean += dnorm\[i\] / WIDTH;|(void)dnorm_mean;|
