# Right: beta^step by std::pow rather than a loop of products: the same update, rounded differently.
s|    for (int i = 0; i < step; i++) power1 \*= double(BETA1), power2 \*= double(BETA2);|    power1 = power(double(BETA1), step), power2 = power(double(BETA2), step);|
