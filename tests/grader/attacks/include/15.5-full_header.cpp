// Exercise: 15.5
// Attack: include/full_header
// Rule: rejected
// Why: the repository's colour_recall.hpp, reached as ../chapter15/colour_recall.hpp: its loss_and_gradient does the loop's work.
// Replace-include: ../colour_recall.hpp ../chapter15/colour_recall.hpp
//@ body train
    std::vector<float> losses;
    for (int u = 0; u < updates; u++) {
        Params grad(p.bias.cols);
        losses.push_back(loss_and_gradient(p, examples, grad));
        adam.update(p, grad);
    }
    return losses;
}
