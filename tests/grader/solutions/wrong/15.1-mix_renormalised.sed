# Wrong: the mix divided by the sum of the weights: the same whenever the weights come from lookup_weights (they add up to one), wrong for the weights the statement allows.
s|^    return z;|    float weight_sum = 0.0f; for (float w : weights) weight_sum += w; for (float\& x : z) x /= weight_sum; return z;|
