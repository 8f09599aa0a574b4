# Wrong: the draw made from the plain softmax, whatever the temperature.
# Loses: distribution printed_output
# Keeps: hidden_probs temperature_direction temperature_zero seeded
s|const std::vector<float> p = next_letter_probabilities(logits, V, temperature);|const std::vector<float> p = next_letter_probabilities(logits, V, 1.0f);|
