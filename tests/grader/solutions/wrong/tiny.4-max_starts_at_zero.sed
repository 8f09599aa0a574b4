# Wrong: its own softmax whose largest starts at 0, not at the first logit / T: right whenever one is above 0, 0 / 0 when every one is below about -104.
# Loses: hidden_probs
# Keeps: temperature_direction distribution temperature_zero seeded printed_output
s|    softmax(p.data(), V);|    float biggest = 0.0f, total = 0.0f; for (float x : p) biggest = x > biggest ? x : biggest; for (float\& x : p) total += (x = exp_f(x - biggest)); for (float\& x : p) x /= total;|
