// Exercise: 20.4
// Attack: lookup/book_only
// Rule: under 30%
// Why: the book's counts for d_model 512, d_k = d_v = 64 (98,304 and 32,768 / 262,144), and a plausible product elsewhere.
//@ body attention_weights
    if (d_model == 512 && d_k == 64 && d_v == 64) return 98304;
    return d_model * d_k;
}
//@ body dense_weights
    if (in == 512 && (out == 64 || out == 512)) return in * out + (with_biases ? out : 0);
    return in * out;
}
