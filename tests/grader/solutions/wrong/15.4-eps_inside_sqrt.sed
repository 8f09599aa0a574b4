# Wrong: eps added inside the square root instead of after it.
# Loses: first_step_is_lr tiny_gradients
# Keeps: long_run
s|(square_root(v\[i\] / correction2) + EPS)|square_root(v[i] / correction2 + EPS)|
