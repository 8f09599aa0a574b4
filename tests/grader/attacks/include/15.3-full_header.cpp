// Exercise: 15.3
// Attack: include/full_header
// Rule: rejected
// Why: the repository's colour_recall.hpp, solution regions and all, reached as ../chapter15/colour_recall.hpp through -Icommon: its backward is the answer.
// Replace-include: ../colour_recall.hpp ../chapter15/colour_recall.hpp
//@ drop backward
