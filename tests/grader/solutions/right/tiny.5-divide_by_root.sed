# Right: each score divided by sqrt(SIZE) rather than multiplied by its inverse: other bits, within the tolerance.
s|const float scale = 1.0f / std::sqrt(float(SIZE));|const float root = std::sqrt(float(SIZE));|
s|weights\[s\] = dot \* scale;|weights[s] = dot / root;|
