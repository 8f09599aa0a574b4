# Exercise: 15.4
# Attack: right/pow_corrections
# Rule: full
# Why: beta^step by std::pow rather than by repeated squaring: the same update, rounded differently.
s|power(double(BETA\([12]\)), step)|std::pow(double(BETA\1), step)|
