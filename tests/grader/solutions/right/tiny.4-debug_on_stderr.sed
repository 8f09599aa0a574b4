# Right: a debug line on stderr for every draw (60,000 lines): stderr has its own generous limit.
s|        if (u < running) return v;|        if (u < running) { std::fprintf(stderr, "sample_next: u = %.6f, running = %.6f, letter %d of %d\\n", double(u), double(running), v, V); return v; }|
