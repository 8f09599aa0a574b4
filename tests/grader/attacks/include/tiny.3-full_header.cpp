// Exercise: tiny.3
// Attack: include/full_header
// Rule: rejected
// Why: the repository's tiny_model.hpp, solution regions and all, reached as ../chapter_tiny/tiny_model.hpp through -Icommon: its level_backward is the answer.
// Replace-include: ../tiny_model.hpp ../chapter_tiny/tiny_model.hpp
//@ drop level_backward
    level_backward(din, dgain, dbias, dout, in, mean, rstd, gain, T);
}
