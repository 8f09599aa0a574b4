// Right: raw dot-product attention with its own softmax in double (largest subtracted) and the blend in double: right, though not bit-identical to listing 109's float path.
//@ body identity
    Matrix I(n, n);
    for (int i = 0; i < n; i++) I(i, i) = 1.0f;
    return I;
}
//@ body raw_dot_product_attention
    Attention a;
    a.weights = Matrix(X.rows, X.rows);
    a.out = Matrix(X.rows, X.cols);
    for (int i = 0; i < X.rows; i++) {
        std::vector<double> s(size_t(X.rows));
        double biggest = -1e300, total = 0.0;
        for (int j = 0; j < X.rows; j++) {
            double d = 0.0;
            for (int k = 0; k < X.cols; k++) d += double(X(i, k)) * double(X(j, k));
            s[j] = d;
            if (d > biggest) biggest = d;
        }
        for (int j = 0; j < X.rows; j++) total += (s[j] = exp_d(s[j] - biggest));
        for (int j = 0; j < X.rows; j++) a.weights(i, j) = float(s[j] / total);
        for (int k = 0; k < X.cols; k++) {
            double blend = 0.0;
            for (int j = 0; j < X.rows; j++) blend += s[j] / total * double(X(j, k));
            a.out(i, k) = float(blend);
        }
    }
    return a;
}
