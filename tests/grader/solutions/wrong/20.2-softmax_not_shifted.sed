# Wrong: exp of the raw products q_i * k_j, without the largest subtracted: inf/nan once a product passes ~88, which the statement's softmax (matrix.hpp's) never gives.
s|^\( *\)softmax(weights.row(i), weights.cols);|\1{ float total = 0.0f; for (int j = 0; j < weights.cols; j++) total += (weights(i, j) = exp_f(weights(i, j))); for (int j = 0; j < weights.cols; j++) weights(i, j) /= total; }|
