# Wrong: din without the term for the row's spread (norm times the mean of dnorm * norm): the mean's term kept.
s|(dnorm - dnorm_mean - norm \* dnorm_norm_mean) \* rstd\[t\]|(dnorm - dnorm_mean + 0.0f * dnorm_norm_mean) * rstd[t]|
