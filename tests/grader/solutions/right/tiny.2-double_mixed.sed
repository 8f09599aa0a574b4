# Right: the row's weighted mean of the weight gradients summed in double.
s|float mixed = 0.0f;|double mixed = 0.0;|
s|const float dscore = row\[s\] \* (dweight\[s\] - mixed) \* scale;|const float dscore = float(row[s] * (dweight[s] - mixed) * scale);|
