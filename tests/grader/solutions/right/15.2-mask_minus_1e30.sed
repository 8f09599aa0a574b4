# Right: the mask written as -1e30 rather than -infinity (printed -1.0000e+30): the same weights.
s|masked(i, j) = -std::numeric_limits<float>::infinity();|masked(i, j) = -1e30f;|
