# Wrong: the query's gradient without the scores' 1/sqrt(D_K).
# Loses: W_Q embeddings printed_output
# Keeps: bias W_out W_V W_K adds_into_grad
s|d_q(0, c) += d_scores(0, j) \* f.K(j, c) \* score_scale;|d_q(0, c) += d_scores(0, j) * f.K(j, c);|
