# Right: beta^step by std::pow rather than maths.hpp's power: the same update, rounded differently.
s|power(double(BETA\([12]\)), step)|std::pow(double(BETA\1), step)|
