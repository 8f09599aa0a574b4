// Exercise: 15.4
// Attack: lookup/sign_sgd
// Rule: under 30%
// Why: sign-SGD with Adam's bookkeeping: m and v updated as Adam does, the parameter moved by lr against the gradient's sign (Adam's first step exactly, and close on a long run).
//@ body adam_step
    for (size_t i = 0; i < params.size(); i++) {
        m[i] = BETA1 * m[i] + (1.0f - BETA1) * grads[i];
        v[i] = BETA2 * v[i] + (1.0f - BETA2) * grads[i] * grads[i];
        params[i] -= lr * (m[i] > 0 ? 1.0f : m[i] < 0 ? -1.0f : 0.0f);
    }
    (void)step;
}
