# Wrong: the softmax's backward with its sign flipped.
# Loses: W_K W_Q embeddings printed_output
# Keeps: bias W_out W_V adds_into_grad
s|d_scores(0, j) = f.weights(0, j) \* (d_weights(0, j) - mean_d_weight);|d_scores(0, j) = f.weights(0, j) * (mean_d_weight - d_weights(0, j));|
