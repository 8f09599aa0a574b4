# Wrong: the keys read from the values' numbers (offset 2 WIDTH instead of WIDTH).
# Loses: hidden_found hidden_weights no_peeking the_model printed_output
# Keeps:
s|const float\* key = lookups + s \* 3 \* WIDTH + WIDTH + h \* SIZE;|const float* key = lookups + s * 3 * WIDTH + 2 * WIDTH + h * SIZE;|
