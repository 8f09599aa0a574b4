# Wrong: the bias's gradient assigned (=) instead of added into grad.
# Loses: adds_into_grad printed_output
# Keeps: bias W_out W_V W_K W_Q embeddings
s|grad.bias(0, i) += d_logits(0, i);|grad.bias(0, i) = d_logits(0, i);|
