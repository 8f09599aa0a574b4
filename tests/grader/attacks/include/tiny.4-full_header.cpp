// Exercise: tiny.4
// Attack: include/full_header
// Rule: rejected
// Why: the repository's tiny_model.hpp, reached as ../chapter_tiny/tiny_model.hpp: its sampler is the answer.
// Replace-include: ../tiny_model.hpp ../chapter_tiny/tiny_model.hpp
//@ drop next_letter_probabilities
//@ drop sample_next
