// Wrong: exp of the raw scaled scores, without the row's largest subtracted: inf/nan for large lookups.
// Loses: hidden_found hidden_weights
// Keeps: no_peeking the_model printed_output
//@ body attend_forward
    const float scale = 1.0f / std::sqrt(float(SIZE));
    for (int t = 0; t < T; t++)
        for (int h = 0; h < HEADS; h++) {
            float* row = weights + (h * T + t) * T;
            float total = 0.0f;
            for (int s = 0; s < T; s++) {
                float dot = 0.0f;
                for (int i = 0; i < SIZE; i++) dot += lookups[t * 3 * WIDTH + h * SIZE + i] * lookups[s * 3 * WIDTH + WIDTH + h * SIZE + i];
                row[s] = s <= t ? exp_f(dot * scale) : 0.0f;
                total += row[s];
            }
            for (int i = 0; i < SIZE; i++) found[t * WIDTH + h * SIZE + i] = 0.0f;
            for (int s = 0; s <= t; s++) {
                row[s] /= total;
                for (int i = 0; i < SIZE; i++) found[t * WIDTH + h * SIZE + i] += row[s] * lookups[s * 3 * WIDTH + 2 * WIDTH + h * SIZE + i];
            }
        }
}
