# Wrong: the last position's embedding never gets what flows back through the query (d q W_Q^T): every other block is right.
s|for (int r = 0; r < D; r++) grad.embeddings(tokens\[T - 1\], r) += d_x_last\[r\];|(void)d_x_last;|
