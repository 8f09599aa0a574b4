# Wrong: at temperature 0 the largest logit is looked for starting from a value of 0, not from the first logit: letter 0 whenever every logit is below 0.
# Loses: temperature_zero
# Keeps: hidden_probs temperature_direction distribution seeded printed_output
s|        int best = 0;|        int best = 0;\n        float largest = 0.0f;|
s|        for (int v = 1; v < V; v++)|        for (int v = 0; v < V; v++)|
s|            if (logits\[v\] > logits\[best\]) best = v;|            if (logits[v] > largest) largest = logits[v], best = v;|
