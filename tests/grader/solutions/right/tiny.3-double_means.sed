# Right: the row's means of dnorm and dnorm * norm summed in double.
s|float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;|double dnorm_mean = 0.0, dnorm_norm_mean = 0.0;|
s|din\[t \* WIDTH + i\] += (dnorm - dnorm_mean - norm \* dnorm_norm_mean) \* rstd\[t\];|din[t * WIDTH + i] += float((dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[t]);|
