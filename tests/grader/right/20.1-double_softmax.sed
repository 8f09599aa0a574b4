# Exercise: 20.1
# Right: its own softmax, in double, rather than matrix.hpp's: the bits may differ, the result does not.
s|softmax(a.weights.row(i), X.rows);|{ float* r = a.weights.row(i); double top = r[0], total = 0; for (int j = 1; j < X.rows; j++) top = r[j] > top ? r[j] : top; std::vector<double> e(size_t(X.rows)); for (int j = X.rows - 1; j >= 0; j--) total += (e[size_t(j)] = exp_d(double(r[j]) - top)); for (int j = 0; j < X.rows; j++) r[j] = float(e[size_t(j)] / total); }|
