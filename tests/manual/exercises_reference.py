#!/usr/bin/env python3
"""tests/manual/exercises_reference.py: the exercise programs' printed numbers,
recomputed in plain double-precision Python from the statements alone (not
from the C++), to check their goldens in tests/golden/*/exercises/.

    python3 tests/manual/exercises_reference.py

prints, per exercise, the numbers its golden holds; compare by eye or with the
golden open beside it. The numbers already checked elsewhere are left out:
15.1's (the book's and 15_1_Soft_Lookup's golden), 15.5's (15_2_Lab5_Training's
golden rows), tiny.1's head table (tiny_3_Several_Readers' golden).
"""
import math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "reference"))
import tiny_reference as tr

def softmax(v):
    top = max(v); e = [math.exp(x - top) for x in v]; s = sum(e); return [x / s for x in e]

print("15.2, causal weights of the four made-up positions (d_k = 2):")
Q = [(1, 0), (0, 1), (1, 1), (2, -1)]
K = [(1, 0), (1, 1), (0, 1), (-1, 0.5)]
for i, q in enumerate(Q):
    s = [(q[0] * k[0] + q[1] * k[1]) / math.sqrt(2) for k in K[:i + 1]]
    print("  ", " ".join("%.4f" % w for w in softmax(s) + [0.0] * (3 - i)))
print("   the wear row with the mask:", " ".join("%.4f" % w for w in softmax([0, 0])), "0")

print("15.4, Adam (beta1 0.9, beta2 0.999, eps 1e-8) on (x - 3)^2 from 0 at lr 0.1:")
x, m, v = 0.0, 0.0, 0.0
for t in range(1, 201):
    g = 2 * (x - 3)
    m = 0.9 * m + 0.1 * g; v = 0.999 * v + 0.001 * g * g
    x -= 0.1 * (m / (1 - 0.9 ** t)) / (math.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    if t <= 3 or t in (10, 50, 100, 200): print("   %6d  %7.4f" % (t, x))

print("tiny.4, probabilities and 1000 draws with seed 1:")
L = [3.0, 1.5, 1.2, 0.8, 0.5, -0.5]
for T in (0.5, 1.0, 2.0):
    p = softmax([l / T for l in L])
    rng = tr.SplitMix64(1); counts = [0] * 6
    for _ in range(1000):
        u = rng.uniform(); run = 0.0; pick = 5
        for k, pk in enumerate(p):
            run += pk
            if u < run: pick = k; break
        counts[pick] += 1
    print("   %.1f " % T, " ".join("%.3f" % x for x in p), " ", " ".join("%d" % c for c in counts))

print("tiny.1, what letter 53 finds with head 1 in the first block (first 4 numbers):")
mdl = tr.load(os.environ.get("TINY_MODEL", "chapter_tiny/shakespeare.tiny"))
text = "The bag didn't fit in the car because it was too small"
ids = [mdl["vocab"].index(c) for c in text]
b = mdl["blocks"][0]
xs = [[t + p for t, p in zip(mdl["token"][i], mdl["position"][s])] for s, i in enumerate(ids)]
look = [tr.times(tr.level(x, b["g1"], b["b1"]), b["lookup"]) for x in xs]
t = len(ids) - 1
w = softmax([sum(look[t][i] * look[s][32 + i] for i in range(8)) / math.sqrt(8) for s in range(t + 1)])
print("  ", " ".join("%+.4f" % sum(w[s] * look[s][64 + i] for s in range(t + 1)) for i in range(4)))
