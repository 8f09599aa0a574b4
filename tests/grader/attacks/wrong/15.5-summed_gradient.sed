# Exercise: 15.5
# Attack: wrong/summed_gradient
# Rule: below full
# Why: backward with loss_weight 1, the summed gradient, where the statement asks for the mean's (1 / number of examples); the loss reported is still the mean.
s/backward(p, e.tokens, f, e.target, loss_weight, grad);/backward(p, e.tokens, f, e.target, 1.0f, grad);/
