// Right: attend with every dot product, exponential and sum in double, rounded to float at the end: more exact than the reference, so it must not lose points.
//@ body attend_forward
    const double scale = 1.0 / double(std::sqrt(float(SIZE)));
    for (int t = 0; t < T; t++)
        for (int h = 0; h < HEADS; h++) {
            std::vector<double> w(size_t(t) + 1);
            double biggest = -1e300, total = 0.0;
            for (int s = 0; s <= t; s++) {
                double dot = 0.0;
                for (int i = 0; i < SIZE; i++)
                    dot += double(lookups[t * 3 * WIDTH + h * SIZE + i]) * double(lookups[s * 3 * WIDTH + WIDTH + h * SIZE + i]);
                w[s] = dot * scale;
                if (w[s] > biggest) biggest = w[s];
            }
            for (int s = 0; s <= t; s++) total += (w[s] = exp_d(w[s] - biggest));
            float* row = weights + (h * T + t) * T;
            for (int s = 0; s < T; s++) row[s] = s <= t ? float(w[s] / total) : 0.0f;
            for (int i = 0; i < SIZE; i++) {
                double sum = 0.0;
                for (int s = 0; s <= t; s++) sum += w[s] / total * double(lookups[s * 3 * WIDTH + 2 * WIDTH + h * SIZE + i]);
                found[t * WIDTH + h * SIZE + i] = float(sum);
            }
        }
}
