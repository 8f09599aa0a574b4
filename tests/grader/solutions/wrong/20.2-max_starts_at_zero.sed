# Wrong: its own softmax whose largest score starts at 0, not at the row's first: right whenever a row has a score above 0, 0 / 0 when every one is below about -104.
# Loses: hidden_inputs
# Keeps: book_input monotone_in_the_key trend_classification printed_output
s|        softmax(weights.row(i), weights.cols);|        float biggest = 0.0f, total = 0.0f; for (int j = 0; j < weights.cols; j++) biggest = weights(i, j) > biggest ? weights(i, j) : biggest; for (int j = 0; j < weights.cols; j++) total += (weights(i, j) = exp_f(weights(i, j) - biggest)); for (int j = 0; j < weights.cols; j++) weights(i, j) /= total;|
