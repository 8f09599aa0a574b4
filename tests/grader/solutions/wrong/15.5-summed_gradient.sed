# Wrong: backward with loss_weight 1, the summed gradient rather than the mean's; Adam's steps hardly change unless the gradients are far below eps, its running means do.
# Loses: hidden_runs mean_gradient
# Keeps: loss_before_the_step
s/backward(p, e.tokens, f, e.target, loss_weight, grad);/backward(p, e.tokens, f, e.target, 1.0f, grad);/
