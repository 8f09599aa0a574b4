# Right: the examples visited last first, so the gradient and the loss are summed in another order, and the loss in double: the same mean, other roundings.
s|        for (const Example\& e : examples) {|        for (size_t k = examples.size(); k-- > 0;) { const Example\& e = examples[k];|
s|        float loss = 0.0f;|        double loss = 0.0;|
s|        losses.push_back(loss);|        losses.push_back(float(loss));|
