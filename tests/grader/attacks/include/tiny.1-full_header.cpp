// Exercise: tiny.1
// Attack: include/full_header
// Rule: rejected
// Why: the repository's tiny_model.hpp, solution regions and all, reached as ../chapter_tiny/tiny_model.hpp through -Icommon: its attend_forward is the answer.
// Replace-include: ../tiny_model.hpp ../chapter_tiny/tiny_model.hpp
//@ drop attend_forward
    attend_forward(found, weights, lookups, T);
}
