#!/usr/bin/env python3
"""tests/reference/tiny_reference.py: an independent reading of a tiny model checkpoint.

Written from the checkpoint format in chapter_tiny/README.md alone, in plain
Python and in double precision, without any of the C++ code. It checks the
goldens of chapter_tiny/tiny_generate by hand (it takes minutes, so make test
does not run it):

  python3 tests/reference/tiny_reference.py score "The bag didn't fit in the car because it was too small"
  python3 tests/reference/tiny_reference.py generate "ROMEO:" 200 0.8 1

`score` prints the mean next-character cross-entropy; `generate` replays the
sampler (SplitMix64, as common/matrix.hpp) and prints the text. TINY_MODEL=FILE
reads another checkpoint.
"""
import math
import os
import struct
import sys

W, SEATS, BLOCKS, HEADS, F = 32, 64, 2, 4, 128
SIZE = W // HEADS


def load(path):
    data = open(path, "rb").read()
    assert data[:4] == b"TINY", "magic"
    version, V, w, seats, blocks, heads, f = struct.unpack_from("<7I", data, 4)
    assert (version, w, seats, blocks, heads, f) == (1, W, SEATS, BLOCKS, HEADS, F)
    vocab = data[32:32 + V].decode("latin-1")
    floats = struct.unpack_from("<%df" % ((len(data) - 32 - V) // 4), data, 32 + V)
    at = 0

    def take(rows, cols=1):
        nonlocal at
        flat = floats[at:at + rows * cols]
        at += rows * cols
        return [list(flat[r * cols:(r + 1) * cols]) for r in range(rows)] if cols > 1 else list(flat)

    m = {"vocab": vocab, "V": V, "token": take(V, W), "position": take(SEATS, W), "blocks": []}
    for _ in range(BLOCKS):
        m["blocks"].append({"g1": take(W), "b1": take(W), "lookup": take(W, 3 * W), "write": take(W, W),
                            "g2": take(W), "b2": take(W), "hidden": take(W, F), "out": take(F, W)})
    m["gf"], m["bf"], m["output"] = take(W), take(W), take(W, V)
    assert at == len(floats), "length"
    return m


def level(x, gain, bias):
    mean = sum(x) / len(x)
    var = sum((v - mean) ** 2 for v in x) / len(x)
    r = 1.0 / math.sqrt(var + 1e-5)
    return [(v - mean) * r * g + b for v, g, b in zip(x, gain, bias)]


def times(x, M):  # row vector x times matrix M (rows = len(x))
    out = [0.0] * len(M[0])
    for xi, row in zip(x, M):
        for j, mij in enumerate(row):
            out[j] += xi * mij
    return out


def gelu(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def logits_of(m, ids):
    """The logits after the last letter of ids (at most SEATS letters)."""
    xs = [[t + p for t, p in zip(m["token"][i], m["position"][s])] for s, i in enumerate(ids)]
    for b in m["blocks"]:
        look = [times(level(x, b["g1"], b["b1"]), b["lookup"]) for x in xs]
        found = []
        for t in range(len(xs)):
            row = [0.0] * W
            for h in range(HEADS):
                q = look[t][h * SIZE:(h + 1) * SIZE]
                scores = [sum(qi * ki for qi, ki in zip(q, look[s][W + h * SIZE:W + (h + 1) * SIZE])) / math.sqrt(SIZE)
                          for s in range(t + 1)]
                top = max(scores)
                e = [math.exp(v - top) for v in scores]
                total = sum(e)
                for s in range(t + 1):
                    value = look[s][2 * W + h * SIZE:2 * W + (h + 1) * SIZE]
                    for i in range(SIZE):
                        row[h * SIZE + i] += e[s] / total * value[i]
            found.append(row)
        middle = [[a + c for a, c in zip(x, times(fo, b["write"]))] for x, fo in zip(xs, found)]
        xs = [[a + c for a, c in zip(mid, times([gelu(v) for v in times(level(mid, b["g2"], b["b2"]), b["hidden"])],
                                               b["out"]))] for mid in middle]
    return times(level(xs[-1], m["gf"], m["bf"]), m["output"])


def score(m, text):
    ids = [m["vocab"].index(c) for c in text]
    total = 0.0
    for j in range(1, len(ids)):
        logits = logits_of(m, ids[max(0, j - SEATS):j])
        top = max(logits)
        total += math.log(sum(math.exp(v - top) for v in logits)) - (logits[ids[j]] - top)
    return total / (len(ids) - 1)


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 40) / 16777216.0


def generate(m, prompt, length, temperature, seed):
    rng = SplitMix64(seed)
    ids = [m["vocab"].index(c) for c in prompt]
    for _ in range(length):
        logits = [v / temperature for v in logits_of(m, ids[-SEATS:])]
        top = max(logits)
        e = [math.exp(v - top) for v in logits]
        total = sum(e)
        u, running, pick = rng.uniform(), 0.0, m["V"] - 1
        for v, ev in enumerate(e):
            running += ev / total
            if u < running:
                pick = v
                break
        ids.append(pick)
        sys.stdout.write(m["vocab"][pick])
        sys.stdout.flush()
    return "".join(m["vocab"][i] for i in ids)


if __name__ == "__main__":
    model = load(os.environ.get("TINY_MODEL", "chapter_tiny/shakespeare.tiny"))
    if sys.argv[1] == "score":
        print("mean next-character cross-entropy: %.6f" % score(model, sys.argv[2]))
    else:
        prompt, length, temperature, seed = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
        sys.stdout.write(prompt)
        generate(model, prompt, length, temperature, seed)
        print()
