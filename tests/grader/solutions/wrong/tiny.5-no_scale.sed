# Wrong: the scores not multiplied by 1 / sqrt(SIZE).
# Loses: random_windows scores_in_the_hundreds the_model printed_output
# Keeps: one_letter
s|const float scale = 1.0f / std::sqrt(float(SIZE));|const float scale = 1.0f;|
