// Exercise: tiny.4
// Attack: lookup/book_only
// Rule: under 30%
// Why: right for the lesson's six made-up logits (3, 1.5, 1.2, 0.8, 0.5, -0.5), uniform probabilities and the first letter for every other input.
//@ helpers
static bool attack_is_book(const float* logits, int V) { return V == 6 && logits[0] == 3.0f && logits[1] == 1.5f && logits[5] == -0.5f; }
//@ body next_letter_probabilities
    std::vector<float> p(logits, logits + V);
    if (!attack_is_book(logits, V)) return std::vector<float>(size_t(V > 0 ? V : 0), V > 0 ? 1.0f / float(V) : 0.0f);
    for (float& x : p) x /= temperature;
    softmax(p.data(), V);
    return p;
}
//@ body sample_next
    if (!attack_is_book(logits, V)) return 0;
    if (temperature == 0.0f) return 0;
    const std::vector<float> p = next_letter_probabilities(logits, V, temperature);
    const float u = rng.uniform();
    float running = p[0];
    int v = 0;
    while (v < V - 1 && !(u < running)) running += p[++v];
    return v;
}
