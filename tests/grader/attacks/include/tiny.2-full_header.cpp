// Exercise: tiny.2
// Attack: include/full_header
// Rule: rejected
// Why: the repository's tiny_model.hpp, solution regions and all, reached as ../chapter_tiny/tiny_model.hpp through -Icommon: its attend_backward is the answer.
// Replace-include: ../tiny_model.hpp ../chapter_tiny/tiny_model.hpp
//@ drop attend_backward
    attend_backward(dlookups, dfound, weights, lookups, T);
}
