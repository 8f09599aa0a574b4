// Exercise: 15.1
// Attack: lookup/book_only
// Rule: under 30%
// Why: the book's table (0.881, 0.119 and z = (1.762, 0.477)) pasted in for its query and keys, equal weights and a zero z for every other table.
//@ body lookup_weights
    if (query == std::vector<float>{1.0f, 0.0f} && keys.rows == 2 && keys.data == std::vector<float>{1.0f, 0.0f, -1.0f, 0.0f})
        return {0.880797077f, 0.119202922f};
    return std::vector<float>(size_t(keys.rows), keys.rows ? 1.0f / float(keys.rows) : 0.0f);
}
//@ body mix_values
    if (values.rows == 2 && values.data == std::vector<float>{2.0f, 0.0f, 0.0f, 4.0f} && weights.size() == 2 &&
        weights[0] > 0.88f && weights[0] < 0.881f)
        return {1.76159415f, 0.476811688f};
    return std::vector<float>(size_t(values.cols), 0.0f);
}
