# Wrong: the parameters moved along the gradient instead of against it.
# Loses: first_step_is_lr hidden_steps tiny_gradients long_run printed_output
# Keeps:
s|params\[i\] -= step_size|params[i] += step_size|
