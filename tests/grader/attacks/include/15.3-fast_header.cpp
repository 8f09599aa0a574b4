// Exercise: 15.3
// Attack: include/fast_header
// Rule: rejected
// Why: chapter15's fast header, reached as ../chapter15/colour_recall_fast.hpp, brings the full colour_recall.hpp: its backward is the answer.
// Replace-include: ../colour_recall.hpp ../chapter15/colour_recall_fast.hpp
//@ drop backward
