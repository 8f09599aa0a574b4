# Wrong: the scores divided by sqrt(T), the number of positions, instead of sqrt(d_k): the same whenever T = d_k.
s|square_root(float(Q.cols))|square_root(float(Q.rows))|
