# Wrong: the returned loss summed over the examples, not averaged.
# Loses: hidden_runs loss_before_the_step
# Keeps: reaches_three_of_three printed_output
s|loss += cross_entropy(f.logits, e.target) \* loss_weight;|loss += cross_entropy(f.logits, e.target);|
