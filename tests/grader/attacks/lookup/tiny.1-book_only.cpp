// Exercise: tiny.1
// Attack: lookup/book_only
// Rule: under 30%
// Why: uniform causal weights (each letter reads 0..t equally, nothing above the diagonal) and found their mean of the values: the shape, the mask and the no-peeking rules, with no scores at all.
//@ body attend_forward
    for (int t = 0; t < T; t++)
        for (int h = 0; h < HEADS; h++) {
            float* row = weights + (h * T + t) * T;
            for (int s = 0; s < T; s++) row[s] = s <= t ? 1.0f / float(t + 1) : 0.0f;
            for (int i = 0; i < SIZE; i++) {
                float sum = 0.0f;
                for (int s = 0; s <= t; s++) sum += row[s] * lookups[s * 3 * WIDTH + 2 * WIDTH + h * SIZE + i];
                found[t * WIDTH + h * SIZE + i] = sum;
            }
        }
}
