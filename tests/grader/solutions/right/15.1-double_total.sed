# Right: the softmax's sum in double: right, and rounded differently from the reference's float sum.
s|    float total = 0.0f;|    double total = 0.0;|
