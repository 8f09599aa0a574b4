# Exercise: tiny.3
# Wrong: dnorm taken as dout, leaving out the gain.
# Loses: din printed_output
# Keeps: dgain dbias adds_into
s|dnorm\[i\] = d\[i\] \* gain\[i\];|dnorm[i] = d[i]; (void)gain;|
