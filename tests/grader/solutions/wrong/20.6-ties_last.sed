# Wrong: '>=' where the statement says 'the first of equal ones' (strongest, largest_self_weight) and 'more than' (mostly_self): right on every matrix without ties or a self-weight of exactly mostly.
s/if (weights(i, j) > weights(i, best)) best = j;/if (weights(i, j) >= weights(i, best)) best = j;/
s/if (weights(i, i) > mostly)/if (weights(i, i) >= mostly)/
s/if (weights(i, i) > weights(largest, largest)) largest = i;/if (weights(i, i) >= weights(largest, largest)) largest = i;/
