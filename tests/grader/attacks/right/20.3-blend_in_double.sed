# Exercise: 20.3
# Attack: right/blend_in_double
# Rule: full
# Why: the blend of the values written as its own loops, summed in double, rather than matmul(weights, V).
s|^\( *\)a.out = matmul(a.weights, a.V); *\(//.*\)\{0,1\}$|\1a.out = Matrix(a.weights.rows, a.V.cols); for (int i = 0; i < a.out.rows; i++) for (int k = 0; k < a.out.cols; k++) { double s = 0.0; for (int j = 0; j < a.V.rows; j++) s += double(a.weights(i, j)) * double(a.V(j, k)); a.out(i, k) = float(s); }|
