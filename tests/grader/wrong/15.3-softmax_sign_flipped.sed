# Exercise: 15.3
# Wrong: the softmax's backward with its sign flipped.
# Loses: W_K W_Q embeddings printed_output
# Keeps: bias W_out W_V adds_into_grad
s|const float d_s = f.weights(0, j) \* (d_a\[j\] - through);|const float d_s = f.weights(0, j) * (through - d_a[j]);|
