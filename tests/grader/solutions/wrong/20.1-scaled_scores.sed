# Wrong: chapter 19's raw scores divided by sqrt(d), as later attention does; the statement's raw attention does not.
s|a.weights(i, j) = dot(X.row(i), X.row(j), X.cols);|a.weights(i, j) = dot(X.row(i), X.row(j), X.cols) / std::sqrt(float(X.cols));|
