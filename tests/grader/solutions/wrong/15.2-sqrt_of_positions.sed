# Wrong: the scores divided by sqrt(T), the number of positions, instead of sqrt(d_k): the same whenever T = d_k.
s|std::sqrt(float(Q.cols))|std::sqrt(float(Q.rows))|
