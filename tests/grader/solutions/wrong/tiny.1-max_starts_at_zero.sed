# Wrong: the largest score is looked for starting from 0, not from minus infinity: right whenever a score is above 0, 0 / 0 when every one is below about -104.
# Loses: hidden_found hidden_weights
# Keeps: no_peeking the_model printed_output
s|            float biggest = -INFINITY;|            float biggest = 0.0f;|
