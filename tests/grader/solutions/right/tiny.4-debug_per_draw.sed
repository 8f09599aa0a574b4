# Right: the right sampler with a debug line on stderr for every draw, as students write: stderr is not the answer.
s|const float u = rng.uniform();|const float u = rng.uniform(); std::fprintf(stderr, "debug: u = %.6f over %d letters at temperature %g\\n", double(u), V, double(temperature));|
