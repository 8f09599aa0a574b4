# Wrong: softmax's backward with only its diagonal, d s_ij = w_ij d w_ij, the row's weighted mean forgotten.
s|d_scores(i, j) = weights(i, j) \* (d_weights(i, j) - through_row);|d_scores(i, j) = weights(i, j) * d_weights(i, j) + 0.0f * through_row;|
