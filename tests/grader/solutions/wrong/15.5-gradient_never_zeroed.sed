# Wrong: one gradient for the whole run, never zeroed (a missing zero_grad).
# Loses: hidden_runs printed_output
# Keeps: loss_before_the_step
s|        Params grad(p.bias.cols);  // zero_grad()||
s|    for (int u = 0; u < updates; u++) {|    Params grad(p.bias.cols);  // made once, never zeroed\n    for (int u = 0; u < updates; u++) {|
