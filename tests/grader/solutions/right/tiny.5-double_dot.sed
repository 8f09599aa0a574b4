# Right: each dot product summed in double.
s|float dot = 0.0f;|double dot = 0.0;|
