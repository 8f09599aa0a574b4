# Right: the dot products and the softmax's total summed in double: more exact than the reference.
s|float dot = 0.0f;|double dot = 0.0;|
s|float total = 0.0f;|double total = 0.0;|
s|row\[s\] = exp_f(row\[s\] - biggest);|row[s] = float(exp_d(double(row[s]) - biggest));|
