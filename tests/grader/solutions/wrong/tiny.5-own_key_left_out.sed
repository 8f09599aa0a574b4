# Wrong: the newest letter reads the kept letters before it but not its own key and value.
# Loses: random_windows scores_in_the_hundreds one_letter the_model printed_output
# Keeps:
s|s < T;|s < T - 1;|g
