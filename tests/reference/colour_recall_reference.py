#!/usr/bin/env python3
"""An independent double-precision computation of the colour-recall numbers
(chapter15), used to check the goldens before they were written.

Written separately from the C++, not translated from it: its own vocabulary
and texts, SplitMix64 + Box-Muller, forward pass, Adam as PyTorch writes it,
and a backward pass by the plain per-position chain rule (the C++ uses a
factored form). The gradients themselves are checked independently by finite
differences in tests/unit/colour_recall_grad_test.cpp.

    python3 tests/reference/colour_recall_reference.py             Lab 4, the lr 0.03 run, 15.3, 15.4, 15.7
    python3 tests/reference/colour_recall_reference.py --slow      ... and Lab 5's second run (about a minute)
    python3 tests/reference/colour_recall_reference.py --sweep 0.2 40   ... and the seed sweep's per-seed lines
    python3 tests/reference/colour_recall_reference.py --seed 6 --scale 0.2   ... from another start
    python3 tests/reference/colour_recall_reference.py --lines     ... and the goldens' own lines, in their
        format, to diff: 15.3's rows, 15.4's four weight matrices, Lab 5's validation lines,
        the trained matrices' ranges and 15.7 (a)'s scores

The default start (DEFAULT_SEED and INIT_SCALE) is read from chapter15/colour_recall.hpp,
so the reference always checks the start the programs use. It also prints the lr 0.03
run's distance from the book's table and 15.3 figures, computed its own way, to compare
with what chapter15/studies/lab5_runs --search prints for that start.

Not run by make test (it takes seconds to minutes); chapter15/README.md says
what it was compared with.
"""
import math, os, re, sys

WORDS = "The team colour is red blue black . game starting players are on court So the wear".split()
COLOURS = ["red", "blue", "black"]
D, DK, DV = 8, 4, 8

def prefix(colour, game, players):
    t = f"The team colour is {colour} . " + ("The game is starting . " if game else "") + \
        ("The players are on court . " if players else "") + "So the players wear"
    return t

TRAIN = [prefix(c, g, p) for c in COLOURS for (g, p) in [(0, 0), (1, 0), (0, 1)]]
VALID = [prefix(c, 1, 1) for c in COLOURS]

def ids(text, words=WORDS):
    return [words.index(w) for w in text.split()]

M64 = (1 << 64) - 1
class Rng:
    def __init__(self, seed): self.s = seed
    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)
    def normal(self):
        u1 = ((self.next() >> 11) + 1.0) * (1.0 / 9007199254740992.0)
        u2 = (self.next() >> 11) * (1.0 / 9007199254740992.0)
        import struct
        v = math.sqrt(-2.0 * math.log(u1)) * math.cos(6.283185307179586 * u2)
        return struct.unpack("f", struct.pack("f", v))[0]  # rounded to float, as the C++ does

def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]

def start(seed, vocab=17, scale=0.2):
    r = Rng(seed)
    def mat(n, m): return [[f32(r.normal() * f32(scale)) for _ in range(m)] for _ in range(n)]
    p = {"embeddings": mat(vocab, D), "W_Q": mat(D, DK), "W_K": mat(D, DK), "W_V": mat(D, DV),
         "W_out": mat(DV, vocab)}
    p["bias"] = [[0.0] * vocab]
    return p

def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]

def T_(A): return [list(r) for r in zip(*A)]

def softmax(v):
    m = max(v); e = [math.exp(x - m) for x in v]; s = sum(e); return [x / s for x in e]

def forward(p, toks):
    X = [p["embeddings"][t] for t in toks]
    q = matmul([X[-1]], p["W_Q"])[0]; K = matmul(X, p["W_K"]); V = matmul(X, p["W_V"])
    s = [sum(q[c] * k[c] for c in range(DK)) / 2 for k in K]
    a = softmax(s)
    z = [sum(a[j] * V[j][c] for j in range(len(toks))) for c in range(DV)]
    logits = [sum(z[r] * p["W_out"][r][i] for r in range(DV)) + p["bias"][0][i] for i in range(len(p["bias"][0]))]
    return dict(X=X, q=q, K=K, V=V, s=s, a=a, z=z, logits=logits, probs=softmax(logits))

def ce(logits, t):
    m = max(logits); return math.log(sum(math.exp(x - m) for x in logits)) - (logits[t] - m)

def grads(p, texts):
    g = {k: [[0.0] * len(v[0]) for _ in v] for k, v in p.items()}
    n = len(texts); total = 0.0
    for text in texts:
        toks = ids(text); tgt = WORDS.index(text.split()[4]); f = forward(p, toks); Tn = len(toks)
        total += ce(f["logits"], tgt)
        dl = [(f["probs"][i] - (i == tgt)) / n for i in range(len(f["probs"]))]
        g["bias"][0] = [g["bias"][0][i] + dl[i] for i in range(len(dl))]
        for r in range(DV):
            for i in range(len(dl)): g["W_out"][r][i] += f["z"][r] * dl[i]
        dz = [sum(dl[i] * p["W_out"][r][i] for i in range(len(dl))) for r in range(DV)]
        da = [sum(dz[c] * f["V"][j][c] for c in range(DV)) for j in range(Tn)]
        dV = [[f["a"][j] * dz[c] for c in range(DV)] for j in range(Tn)]
        ds = [f["a"][j] * (da[j] - sum(f["a"][l] * da[l] for l in range(Tn))) for j in range(Tn)]
        dq = [sum(ds[j] * f["K"][j][c] for j in range(Tn)) / 2 for c in range(DK)]
        dK = [[ds[j] * f["q"][c] / 2 for c in range(DK)] for j in range(Tn)]
        X = f["X"]
        for name, dY, rows in (("W_K", dK, range(Tn)), ("W_V", dV, range(Tn)), ("W_Q", [dq], [Tn - 1])):
            W = p[name]
            for idx, t in enumerate(rows):
                dy = dY[idx]
                for r in range(D):
                    for c in range(len(dy)): g[name][r][c] += X[t][r] * dy[c]
                    g["embeddings"][toks[t]][r] += sum(dy[c] * W[r][c] for c in range(len(dy)))
    return total / n, g

def adam(p, lr, updates, record):
    m = {k: [[0.0] * len(r) for r in v] for k, v in p.items()}
    v = {k: [[0.0] * len(r) for r in v] for k, v in p.items()}
    out = {0: measure(p)} if 0 in record else {}
    for step in range(1, updates + 1):
        _, g = grads(p, TRAIN)
        c1 = 1 - 0.9 ** step; c2 = 1 - 0.999 ** step
        for k in p:
            for i in range(len(p[k])):
                for j in range(len(p[k][i])):
                    m[k][i][j] = 0.9 * m[k][i][j] + 0.1 * g[k][i][j]
                    v[k][i][j] = 0.999 * v[k][i][j] + 0.001 * g[k][i][j] ** 2
                    p[k][i][j] -= lr / c1 * m[k][i][j] / (math.sqrt(v[k][i][j]) / math.sqrt(c2) + 1e-8)
        if step in record: out[step] = measure(p)
    return out

def measure(p):
    f = forward(p, ids(TRAIN[0])); a = f["a"]
    other = max(a[j] for j in range(len(a)) if j != 4)
    tl = sum(ce(forward(p, ids(t))["logits"], WORDS.index(t.split()[4])) for t in TRAIN) / 9
    vl = sum(ce(forward(p, ids(t))["logits"], WORDS.index(t.split()[4])) for t in VALID) / 3
    vc = 0
    for t in VALID:
        pr = forward(p, ids(t))["probs"]; vc += pr.index(max(pr)) == WORDS.index(t.split()[4])
    pred = WORDS[f["probs"].index(max(f["probs"]))]
    return "%.3f %.3f %.3f %s %.3f %.3f %d of 3" % (a[4], other, f["probs"][4], pred, tl, vl, vc)

def copy(p): return {k: [list(r) for r in v] for k, v in p.items()}

def default_start():
    header = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "chapter15", "colour_recall.hpp")).read()
    seed = int(re.search(r"DEFAULT_SEED\s*=\s*(\d+)", header).group(1))
    scale = float(re.search(r"INIT_SCALE\s*=\s*([0-9.]+)f", header).group(1))
    if "--seed" in sys.argv: seed = int(sys.argv[sys.argv.index("--seed") + 1])
    if "--scale" in sys.argv: scale = float(sys.argv[sys.argv.index("--scale") + 1])
    return seed, scale

# The book's 15.2.3 table (update: weight on 5, largest other, p_red, predicted, training
# and validation loss, validation correct) and 15.3's figures, as the book prints them.
BOOK_ROWS = {0: "0.099 0.103 0.058 . 2.837 2.836 0", 10: "0.079 0.160 0.279 blue 1.215 1.214 1",
             30: "0.717 0.085 0.580 red 0.607 0.641 3", 50: "1.000 0.000 1.000 red 0.000 0.000 3",
             200: "1.000 0.000 1.000 red 0.000 0.000 3"}
BOOK_15_3 = {"red": (39.9, {"red": 24.3, "black": 7.7, "blue": 5.2}),
             "black": (45.5, {"black": 11.9, "red": -4.2, "blue": -3.1})}

def table_line(update, m):
    """A row of Lab 5's table as 15_2_Lab5_Training prints it, from measure()'s words."""
    w, o, pr, pred, tl, vl, n = m.replace(" of 3", "").split()
    return "  %6s  %10s  %12s  %5s  %-9s  %8s  %10s      %s of 3" % (update, w, o, pr, pred, tl, vl, n)

def print_golden_lines(p0, p, fast_rows, slow_rows):
    """Lines as the goldens print them, to find in tests/golden/chapter15/ (after a marker line)."""
    print("--- golden lines ---")
    f = forward(p0, ids(TRAIN[0]))  # 15_2_Lab4_Model: the starting row and probabilities
    for j, t in enumerate(TRAIN[0].split()):
        print("  %8d  %-8s %6.3f  %6.3f" % (j + 1, t, f["s"][j], f["a"][j]))
    for c in COLOURS: print("  p(%s) = %.3f" % (c, f["probs"][WORDS.index(c)]))
    print("  most probable next token: %s" % WORDS[f["probs"].index(max(f["probs"]))])
    print("Loss -log p(red) = %.3f; ln 17 = 2.833" % ce(f["logits"], 4))
    for u, m in sorted(fast_rows.items()) + sorted(slow_rows.items()):  # 15_2_Lab5_Training's tables
        print(table_line(str(u), m))
    fb = forward(p, ids(TRAIN[6]))
    print("  attention row at wear: " + " ".join("%.3f" % x for x in fb["a"]))
    print("  weight on position 5 = %.3f, p(black) = %.3f" % (fb["a"][4], fb["probs"][6]))
    for text in (TRAIN[0], TRAIN[6]):  # 15_3_Learned_Weights: one line per position
        ff = forward(p, ids(text))
        for j, t in enumerate(text.split()):
            adds = [ff["a"][j] * sum(ff["V"][j][r] * p["W_out"][r][WORDS.index(c)] for r in range(DV)) for c in COLOURS]
            print("  %8d  %-8s  %16.1f  %6.3f         %s" % (j + 1, t, ff["s"][j], ff["a"][j],
                  "".join(" %+7.1f" % (0.0 if abs(x) < 0.05 else x) for x in adds)))
        print("  colour scores (logits), the column sums plus the bias:  " +
              "".join(" %+7.1f" % ff["logits"][WORDS.index(c)] for c in COLOURS))
    toks = ids(TRAIN[0] + " red")  # 15_4_Every_Position: the four weight matrices
    for params in (p0, p):
        X = [params["embeddings"][t] for t in toks]
        Q = matmul(X, params["W_Q"]); K = matmul(X, params["W_K"])
        S = [[sum(Q[i][c] * K[j][c] for c in range(DK)) / 2 for j in range(11)] for i in range(11)]
        for masked in (False, True):
            for i, t in enumerate(toks):
                row = softmax(S[i][:i + 1]) + [0.0] * (10 - i) if masked else softmax(S[i])
                print("  %-8s " % WORDS[t] + " ".join("%.3f" % x for x in row))
    for t in VALID:  # 15_2_Lab5_Training: the validation prefixes before and after
        before, after = forward(p0, ids(t)), forward(p, ids(t))
        print("  %-8s %s -> %s  (weight on position 5: %.3f)" % (t.split()[4], WORDS[before["probs"].index(max(before["probs"]))],
              WORDS[after["probs"].index(max(after["probs"]))], after["a"][4]))
    for name in ("embeddings", "W_Q", "W_K", "W_V", "W_out"):
        xs = [x for row in p[name] for x in row]
        print("  entries between %.2f and %.2f" % (min(xs), max(xs)))
    for text in ("The team colour is red . The team colour is blue . So the players wear",
                 "The team colour is blue . The team colour is red . So the players wear"):
        ff = forward(p, ids(text))  # 15_7_One_Layer_Limits (a)
        print("    %s at 5: score %.3f, weight %.3f; %s at 11: score %.3f, weight %.3f;" % (
            text.split()[4], ff["s"][4], ff["a"][4], text.split()[10], ff["s"][10], ff["a"][10]))
        print("    p(red) = %.3f, p(blue) = %.3f, p(black) = %.3f, predicted: %s" % (
            ff["probs"][4], ff["probs"][5], ff["probs"][6], WORDS[ff["probs"].index(max(ff["probs"]))]))

def table_distance(rows):
    """rows[u] as measure() formats it; None if a word differs from the book's."""
    total = 0.0
    for u, book in BOOK_ROWS.items():
        ours, theirs = rows[u].replace(" of 3", "").split(), book.split()
        if ours[3] != theirs[3] or ours[6] != theirs[6]: return None
        total += sum(abs(float(a) - float(b)) for i, (a, b) in enumerate(zip(ours, theirs)) if i not in (3, 6))
    return round(total, 3)

if __name__ == "__main__":
    SEED, SCALE = default_start()
    print("start: seed %d at scale %g" % (SEED, SCALE))
    p0 = start(SEED, 17, SCALE)
    f = forward(p0, ids(TRAIN[0]))
    print("Lab 4 weights:", " ".join("%.3f" % x for x in f["a"]))
    print("Lab 4 scores:", " ".join("%.3f" % x for x in f["s"]))
    print("Lab 4 p(red blue black): %.3f %.3f %.3f  loss %.3f  argmax %s" % (
        f["probs"][4], f["probs"][5], f["probs"][6], ce(f["logits"], 4), WORDS[f["probs"].index(max(f["probs"]))]))
    # 15.4 before training: masked and unmasked weights of the 11-token sentence.
    toks = ids(TRAIN[0] + " red")
    X = [p0["embeddings"][t] for t in toks]
    Q = matmul(X, p0["W_Q"]); K = matmul(X, p0["W_K"])
    S = [[sum(Q[i][c] * K[j][c] for c in range(DK)) / 2 for j in range(11)] for i in range(11)]
    print("15.4 before, unmasked row 9 (players):", " ".join("%.3f" % x for x in softmax(S[8])))
    print("15.4 before, masked row 9 (players):", " ".join("%.3f" % x for x in softmax(S[8][:9])))
    # 15.7 (b): ratios with random weights over 20 tokens.
    W20 = WORDS + ["teams", "referees", "officials"]
    for seed in (1, 2, 3):
        pp = start(seed, 20, 0.5)
        for end in ("players", "officials"):
            text = f"The teams wear blue . The referees wear red . So the {end} wear"
            ff = forward(pp, ids(text, W20))
            print("15.7b seed %d %-9s blue %.4f red %.4f ratio %.4f" % (seed, end, ff["a"][3], ff["a"][8], ff["a"][3] / ff["a"][8]))
    # Lab 5 in double.
    p = copy(p0)
    rows = adam(p, 0.03, 200, {0, 10, 30, 50, 200})
    for u in sorted(rows): print("lr 0.03 update %4d:" % u, rows[u])
    print("table distance from the book's:", table_distance(rows))
    fb = forward(p, ids(TRAIN[6]))
    print("black prefix row:", " ".join("%.3f" % x for x in fb["a"]), "p(black) %.3f" % fb["probs"][6])
    figures = 0.0
    for text in (TRAIN[0], TRAIN[6]):
        ff = forward(p, ids(text))
        contrib = [[ff["a"][j] * sum(ff["V"][j][r] * p["W_out"][r][c] for r in range(DV)) for c in (4, 5, 6)] for j in range(10)]
        others = [float("%.1f" % ff["s"][j]) for j in range(10) if j != 4]
        print("15.3 %s: score at 5 %.1f, others %.1f..%.1f; adds at 5: %+.1f %+.1f %+.1f" % (
            text.split()[4], ff["s"][4], min(others), max(others), *contrib[4]))
        score, adds = BOOK_15_3[text.split()[4]]
        figures += abs(float("%.1f" % ff["s"][4]) - score) + max(abs(x + 12.0) for x in others)
        figures += sum(abs(float("%.1f" % contrib[4][k]) - adds[c]) for k, c in enumerate(COLOURS))
    wk = [x for row in p["W_K"] for x in row]
    lo, hi = float("%.2f" % min(wk)), float("%.2f" % max(wk))
    print("W_K entries between %.2f and %.2f" % (lo, hi))
    print("15.3 distance from the book's: %.1f" % (figures + 10 * (abs(lo + 1.5) + abs(hi - 1.2))))
    for text in ("The team colour is red . The team colour is blue . So the players wear",
                 "The team colour is blue . The team colour is red . So the players wear"):
        ff = forward(p, ids(text))
        print("15.7a scores at 5 and 11: %.3f %.3f; p(red) %.3f" % (ff["s"][4], ff["s"][10], ff["probs"][4]))
    lines_p = p
    toks = ids(TRAIN[0] + " red"); X = [p["embeddings"][t] for t in toks]
    Q = matmul(X, p["W_Q"]); K = matmul(X, p["W_K"])
    S = [[sum(Q[i][c] * K[j][c] for c in range(DK)) / 2 for j in range(11)] for i in range(11)]
    print("15.4 after, unmasked row 10 (wear):", " ".join("%.3f" % x for x in softmax(S[9])))
    print("15.4 after, masked row 4 (is):", " ".join("%.3f" % x for x in softmax(S[3][:4])))
    fast_rows, slow_rows = rows, {}
    if "--slow" in sys.argv:
        rows = adam(copy(p0), 0.003, 1000, {0, 10, 30, 50, 200, 500, 1000})
        for u in sorted(rows): print("lr 0.003 update %4d:" % u, rows[u])
        slow_rows = rows
    if "--lines" in sys.argv:
        print_golden_lines(p0, lines_p, fast_rows, slow_rows)
    if "--sweep" in sys.argv:  # --sweep SCALE N: the seed sweep's per-seed lines
        scale, n = float(sys.argv[sys.argv.index("--sweep") + 1]), int(sys.argv[sys.argv.index("--sweep") + 2])
        for seed in range(1, n + 1):
            p = start(seed, 17, scale)
            adam(p, 0.03, 200, set())
            a = forward(p, ids(TRAIN[0]))["a"]
            top = a.index(max(a))
            tl = sum(ce(forward(p, ids(t))["logits"], WORDS.index(t.split()[4])) for t in TRAIN) / 9
            vc = sum(1 for t in VALID if (lambda pr: pr.index(max(pr)))(forward(p, ids(t))["probs"]) == WORDS.index(t.split()[4]))
            away = [c for c in COLOURS if any(forward(p, ids(t))["a"][4] <= 0.5 for t in TRAIN if t.split()[4] == c)]
            if "--lines" in sys.argv:  # the @seeds golden's line, up to its verdict
                print("  %4d  %13.3f  %d of 3      position %2d (%s) %.3f" % (seed, tl, vc, top + 1, TRAIN[0].split()[top], a[top]))
            else:
                print("%4d %.3f %d of 3 position %2d %.3f %s" % (seed, tl, vc, top + 1, a[top], ",".join(away)))
