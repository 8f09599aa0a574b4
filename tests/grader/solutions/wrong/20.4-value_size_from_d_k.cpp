// Wrong: W_V counted as (d_k x d_model) instead of (d_v x d_model): right whenever d_k = d_v, as in the book.
//@ body attention_weights
    return 3 * d_k * d_model + 0 * d_v;
}
//@ body dense_weights
    return in * out + (with_biases ? out : 0);
}
