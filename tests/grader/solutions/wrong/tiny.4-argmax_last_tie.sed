# Wrong: at temperature 0 the last of the largest logits ('>=') where the statement asks for the first such on a tie.
s/if (logits\[v\] > logits\[best\]) best = v;/if (logits[v] >= logits[best]) best = v;/
