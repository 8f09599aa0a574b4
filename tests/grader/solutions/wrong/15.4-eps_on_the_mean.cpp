// Wrong: eps added to the corrected mean instead of to the square root's result: invisible on gradients of size 1, wrong on tiny ones.
//@ body adam_step
    double power1 = 1.0, power2 = 1.0;
    for (int i = 0; i < step; i++) power1 *= double(BETA1), power2 *= double(BETA2);
    const float c1 = float(1.0 - power1), c2 = float(1.0 - power2);
    for (size_t i = 0; i < params.size(); i++) {
        m[i] = BETA1 * m[i] + (1.0f - BETA1) * grads[i];
        v[i] = BETA2 * v[i] + (1.0f - BETA2) * grads[i] * grads[i];
        params[i] -= lr * (m[i] / c1 + EPS) / std::sqrt(v[i] / c2 + EPS * EPS);
    }
}
