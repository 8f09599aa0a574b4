# Wrong: dnorm taken as dout, leaving out the gain.
# Loses: din printed_output
# Keeps: dgain dbias adds_into
s|const float dnorm = d\[i\] \* gain\[i\];|const float dnorm = d[i]; (void)gain;|
