#!/usr/bin/env python3
"""tests/reference/tiny_demos_reference.py: the numbers of the tiny_2 and tiny_3 demos, computed independently.

Reads the checkpoint with tests/reference/tiny_reference.py (written from the checkpoint
format alone, in double precision), runs the attention itself, and prints, in
the demos' own formats, what their goldens must show: the statistics table and
the top reads of tiny_3, the chosen head, the triangle and the last row of
tiny_2, and the shuffle of "Why positions matter". It takes about a second per
forward pass, so make test does not run it; compare by hand:

  python3 tests/reference/tiny_demos_reference.py > /tmp/reference.txt
  grep -F -x -f /tmp/reference.txt tests/golden/chapter_tiny/tiny_3_Several_Readers.txt

Options as the demos': --text TEXT, --at N (tiny_3's letter), --block B --head H
and --row N (tiny_2's head and row).

TINY_MODEL=FILE reads another checkpoint.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiny_reference import BLOCKS, HEADS, SEATS, SIZE, W, gelu, level, load, times  # noqa: E402

SENTENCE = "The bag didn't fit in the car because it was too small"


def read(m, ids, positions=True):
    """weights[b][h][t][s] and scores[b][h][t][s] of every block's heads."""
    xs = [[t + (p if positions else 0.0) for t, p in zip(m["token"][i], m["position"][s])] for s, i in enumerate(ids)]
    weights, scores = [], []
    for b in m["blocks"]:
        look = [times(level(x, b["g1"], b["b1"]), b["lookup"]) for x in xs]
        found = [[0.0] * W for _ in xs]
        wb, sb = [], []
        for h in range(HEADS):
            wh, sh = [], []
            for t in range(len(xs)):
                q = look[t][h * SIZE:(h + 1) * SIZE]
                sc = [sum(a * k for a, k in zip(q, look[s][W + h * SIZE:W + (h + 1) * SIZE])) / math.sqrt(SIZE)
                      for s in range(t + 1)]
                e = [math.exp(v - max(sc)) for v in sc]
                w = [v / sum(e) for v in e]
                for s in range(t + 1):
                    for i in range(SIZE):
                        found[t][h * SIZE + i] += w[s] * look[s][2 * W + h * SIZE + i]
                wh.append(w)
                sh.append(sc)
            wb.append(wh)
            sb.append(sh)
        weights.append(wb)
        scores.append(sb)
        middle = [[a + c for a, c in zip(x, times(f, b["write"]))] for x, f in zip(xs, found)]
        xs = [[a + c for a, c in zip(mid, times([gelu(v) for v in times(level(mid, b["g2"], b["b2"]), b["hidden"])],
                                               b["out"]))] for mid in middle]
    return weights, scores


def space_before(text, t):
    if text[t] == " ":
        return -1
    start = t
    while start > 0 and text[start - 1] != " ":
        start -= 1
    return start - 1 if 0 < start < t else -1


def argmax(row):
    return max(range(len(row)), key=lambda s: (row[s], -s))


def name(b, h):
    return "block %d head %d" % (b + 1, h + 1)


def shown(c):
    return "_" if c == " " else c


def mark(w):
    level_ = sum(w >= u for u in (0.05, 0.10, 0.20, 0.30, 0.40, 0.50, 0.70))
    return ".:-=+*#@"[level_]


def main():
    import argparse
    parser = argparse.ArgumentParser()
    for option in ("--text", "--at", "--block", "--head", "--row"):
        parser.add_argument(option)
    options = parser.parse_args()
    m = load(os.environ.get("TINY_MODEL", "chapter_tiny/shakespeare.tiny"))
    text = options.text or SENTENCE
    ids = [m["vocab"].index(c) for c in text]
    T = len(ids)
    weights, _ = read(m, ids)
    counted = [t for t in range(T) if space_before(text, t) >= 0]

    # tiny_3: top reads from the letter --at (the last), the statistics table.
    t = int(options.at) if options.at else T - 1
    for b in range(BLOCKS):
        for h in range(HEADS):
            row = weights[b][h][t]
            top = sorted(range(t + 1), key=lambda s: (-row[s], s))[:3]
            print("  %s  " % name(b, h) + "".join("  %2d '%s' %5.1f%%" % (s, shown(text[s]), 100 * row[s]) for s in top))
    for b in range(BLOCKS):
        for h in range(HEADS):
            rows = weights[b][h]
            prev = sum(argmax(rows[t]) == t - 1 for t in range(1, T))
            space = sum(argmax(rows[t]) == space_before(text, t) for t in counted)
            near = sum(sum(rows[t][max(0, t - 2):t + 1]) for t in range(1, T)) / (T - 1)
            back = sum(sum(w * (t - s) for s, w in enumerate(rows[t])) for t in range(1, T)) / (T - 1)
            print("  %s    %2d of %2d  %2d of %2d  %5.1f%%   %5.2f" % (name(b, h), prev, T - 1, space, len(counted),
                                                                   100 * near, back))

    # tiny_2: the head that most often reads the space before the word, its triangle, the last row.
    best = max(((b, h) for b in range(BLOCKS) for h in range(HEADS)),
               key=lambda bh: (sum(argmax(weights[bh[0]][bh[1]][t]) == space_before(text, t) for t in counted),
                               -bh[0], -bh[1]))
    b, h = (int(options.block) - 1, int(options.head) - 1) if options.block else best
    print("chosen head: " + name(b, h))
    for t in range(T):
        print("  %2d %s  %s" % (t, shown(text[t]), "".join(mark(w) for w in weights[b][h][t])))
    for s, w in enumerate(weights[b][h][int(options.row) if options.row else T - 1]):
        print("  %2d '%s'  %5.1f%%" % (s, shown(text[s]), 100 * w))

    # tiny_2: Why positions matter. The demos' shuffle: Fisher-Yates with SplitMix64, seed 1.
    state = 1
    def below(n):
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return (z ^ (z >> 31)) % n
    order = list(range(T))
    for s in range(T - 2, 0, -1):
        r = below(s + 1)
        order[s], order[r] = order[r], order[s]
    shuffled = [0] * T
    for s in range(T):
        shuffled[order[s]] = ids[s]
    print('    "%s"' % "".join(m["vocab"][i] for i in shuffled))
    scores = {}
    for positions in (False, True):
        _, before = read(m, ids, positions)
        _, after = read(m, shuffled, positions)
        scores[positions] = (before, after)
        changes = [abs(after[0][h][T - 1][order[s]] - before[0][h][T - 1][s]) for h in range(HEADS) for s in range(T - 1)]
        print("positions %s: %d of %d scores changed by more than 1e-4; the largest change is %.3f" %
              ("in" if positions else "out", sum(c > 1e-4 for c in changes), len(changes), max(changes)))
    t = T - 1
    for s in (0, t // 3, 2 * t // 3, t - 1):
        out, inn = scores[False], scores[True]
        print("    %2d '%s'  %2d -> %2d     %7.3f -> %7.3f          %7.3f -> %7.3f" % (
            s, shown(text[s]), s, order[s], out[0][0][0][t][s], out[1][0][0][t][order[s]],
            inn[0][0][0][t][s], inn[1][0][0][t][order[s]]))

    # tiny_2: no peeking as behaviour: other letters after letter c move no row up to c.
    c = (T - 1) // 2
    again, _ = read(m, ids[:c + 1] + [(i + 1) % m["V"] for i in ids[c + 1:]])
    moved = [(t <= c, any(abs(x - y) > 1e-12 for x, y in zip(again[b][h][t], weights[b][h][t])))
             for b in range(BLOCKS) for h in range(HEADS) for t in range(T)]
    print("rows up to %d moved: %d; rows after it moved: %d of %d" % (
        c, sum(mv for up, mv in moved if up), sum(mv for up, mv in moved if not up), sum(not up for up, _ in moved)))


if __name__ == "__main__":
    main()
