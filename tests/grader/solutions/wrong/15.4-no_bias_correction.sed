# Wrong: m and v used without the bias corrections 1 - beta^step.
# Loses: first_step_is_lr hidden_steps tiny_gradients printed_output
# Keeps:
s|const float correction1 = float(1.0 - power(double(BETA1), step));|const float correction1 = 1.0f; (void)step;|
s|const float correction2 = float(1.0 - power(double(BETA2), step));|const float correction2 = 1.0f;|
