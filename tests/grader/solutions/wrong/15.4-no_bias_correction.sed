# Wrong: m and v used without the bias corrections 1 - beta^step.
# Loses: first_step_is_lr hidden_steps tiny_gradients printed_output
# Keeps:
s|const float correction1 = float(1.0 - power1), correction2 = float(1.0 - power2);|const float correction1 = 1.0f, correction2 = 1.0f; (void)power1, (void)power2;|
