# Wrong: the logits multiplied by the temperature instead of divided.
# Loses: hidden_probs temperature_direction distribution printed_output
# Keeps: temperature_zero seeded
s|for (float\& x : p) x /= temperature;|for (float\& x : p) x *= temperature;|
