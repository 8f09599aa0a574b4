# Wrong: a score's gradient as its weight times its weight's gradient, without the row's weighted mean subtracted.
s|row\[s\] \* (dweight\[s\] - mixed) \* scale;|row[s] * dweight[s] * scale + 0.0f * mixed;|
