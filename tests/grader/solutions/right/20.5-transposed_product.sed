# Right: d W_Q as (X^T d Q)^T rather than d Q^T X: the same matrix by another route.
s|return matmul(transpose(d_Q), X);|return transpose(matmul(transpose(X), d_Q));|
