# Wrong: the last position's embedding never gets what flows back through the query (d q W_Q^T): every other block is right.
# Loses: embeddings printed_output
# Keeps: bias W_out W_V W_K W_Q adds_into_grad
s|grad.embeddings(tokens\[T - 1\], r) += dot(d_q.row(0), p.W_Q.row(r), D_K);|(void)tokens;|
