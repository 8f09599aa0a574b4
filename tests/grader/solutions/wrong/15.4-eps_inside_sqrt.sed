# Wrong: eps added inside the square root instead of after it.
# Loses: first_step_is_lr tiny_gradients
# Keeps: long_run
s|const float denominator = std::sqrt(v\[i\]) / root_correction2 + EPS;|const float denominator = std::sqrt(v[i] / correction2 + EPS);|
/const float root_correction2 = std::sqrt(correction2);/d
