#!/usr/bin/env python3
"""tests/reference/tiny_reference.py: an independent reading of a tiny model checkpoint.

Written from the checkpoint format in chapter_tiny/README.md alone, in plain
Python and in double precision, without any of the C++ code, reading a text
letter by letter. It checks the goldens of chapter_tiny/tiny_generate by hand
(it takes minutes, so make test does not run it):

  python3 tests/reference/tiny_reference.py score "The bag didn't fit in the car because it was too small"
  python3 tests/reference/tiny_reference.py generate "ROMEO:" 200 0.8 1

`score` prints the mean next-character cross-entropy; `generate` replays the
sampler (SplitMix64, as common/matrix.hpp) and prints the text. And, in a few
seconds, tiny_4_Residual_Adds's figures in its formats, which
tests/checks/chapter_tiny_tiny_4_Residual_Adds.sh compares in make test, and
tiny_2_No_Peeking's small case (one head's weights over a text's first four
letters), which tests/checks/chapter_tiny_tiny_2_No_Peeking.sh compares:

  python3 tests/reference/tiny_reference.py residual [TEXT]
  python3 tests/reference/tiny_reference.py mask TEXT BLOCK HEAD

TINY_MODEL=FILE reads another checkpoint.
"""
import ast
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


def head_weights(look, t, h):
    """Head h's weights for letter t over letters 0 .. t (no later one: the causal mask), from
    look, each letter's query, key and value side by side."""
    q = look[t][h * SIZE:(h + 1) * SIZE]
    scores = [sum(qi * ki for qi, ki in zip(q, look[s][W + h * SIZE:W + (h + 1) * SIZE])) / math.sqrt(SIZE)
              for s in range(t + 1)]
    top = max(scores)
    e = [math.exp(v - top) for v in scores]
    total = sum(e)
    return [v / total for v in e]


def read_letter(m, kept, i, adds=(True, True)):
    """Letter i, after the letters whose queries, keys and values `kept` holds (a list
    per block; this letter's are appended). No letter reads a later one, so a text is
    read letter by letter. adds: whether the attention add and the network add keep
    what came in (False: the block passes on only what it wrote). Returns each block's
    (came in, attention wrote, network wrote, out), and the logits of the next letter."""
    x = [t + p for t, p in zip(m["token"][i], m["position"][len(kept[0])])]
    parts = []
    for b, look in zip(m["blocks"], kept):
        look.append(times(level(x, b["g1"], b["b1"]), b["lookup"]))
        t = len(look) - 1
        found = [0.0] * W
        for h in range(HEADS):
            weights = head_weights(look, t, h)
            for s in range(t + 1):
                value = look[s][2 * W + h * SIZE:2 * W + (h + 1) * SIZE]
                for j in range(SIZE):
                    found[h * SIZE + j] += weights[s] * value[j]
        attention = times(found, b["write"])
        middle = [(a if adds[0] else 0.0) + c for a, c in zip(x, attention)]
        network = times([gelu(v) for v in times(level(middle, b["g2"], b["b2"]), b["hidden"])], b["out"])
        out = [(a if adds[1] else 0.0) + c for a, c in zip(middle, network)]
        parts.append((x, attention, network, out))
        x = out
    return parts, times(level(x, m["gf"], m["bf"]), m["output"])


def read_text(m, ids, adds=(True, True)):
    """read_letter's answer for each letter of ids (at most SEATS), in order."""
    kept = [[] for _ in range(BLOCKS)]
    return [read_letter(m, kept, i, adds) for i in ids]


def logits_of(m, ids):
    """The logits after the last letter of ids (at most SEATS letters)."""
    return read_text(m, ids)[-1][1]


def next_loss(logits, target):
    top = max(logits)
    return math.log(sum(math.exp(v - top) for v in logits)) - (logits[target] - top)


def score(m, text):
    ids = [m["vocab"].index(c) for c in text]
    total = 0.0
    for j in range(1, len(ids)):
        total += next_loss(logits_of(m, ids[max(0, j - SEATS):j]), ids[j])
    return total / (len(ids) - 1)


def mask(m, text, block, head, first=4):
    """tiny_2_No_Peeking's small case, in its format: the first `first` letters of text read
    alone, and head `head` of block `block` (both from 1): each letter's weights, 0 after it."""
    kept = [[] for _ in range(BLOCKS)]
    for c in text[:first]:
        read_letter(m, kept, m["vocab"].index(c))
    for t, c in enumerate(text[:first]):
        weights = head_weights(kept[block - 1], t, head - 1)
        print("  letter %d %s  " % (t, "_" if c == " " else c) + "".join("  %5.1f%%" % (100 * v) for v in weights) +
              "%8s" % "0" * (len(kept[0]) - 1 - t))


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


def draw(logits, temperature, rng):
    """The next letter's id: one uniform draw against softmax(logits / temperature)'s running sum."""
    logits = [v / temperature for v in logits]
    top = max(logits)
    e = [math.exp(v - top) for v in logits]
    total = sum(e)
    u, running = rng.uniform(), 0.0
    for v, ev in enumerate(e):
        running += ev / total
        if u < running:
            return v
    return len(logits) - 1


def generate(m, prompt, length, temperature, seed):
    rng = SplitMix64(seed)
    ids = [m["vocab"].index(c) for c in prompt]
    for _ in range(length):
        pick = draw(logits_of(m, ids[-SEATS:]), temperature, rng)
        ids.append(pick)
        sys.stdout.write(m["vocab"][pick])
        sys.stdout.flush()
    return "".join(m["vocab"][i] for i in ids)


def validation_slice(count):
    """The first count characters of the validation text, the last 10% of
    tinyshakespeare.txt as tiny_train splits it (from len * 9 // 10), and where they came
    from: the file when it is here (compared with the copy tiny_4_Residual_Adds.cpp writes
    out), otherwise that copy."""
    source = open("chapter_tiny/tiny_4_Residual_Adds.cpp").read()
    literal = source.split("const char VALIDATION[] =")[1].split(";")[0]
    copy = "".join(ast.literal_eval(line.strip()) for line in literal.strip().splitlines())
    for path in ("../shared/data/tinyshakespeare.txt", "data/tinyshakespeare.txt"):
        if os.path.exists(path):
            data = open(path, "rb").read().decode("latin-1")
            text = data[len(data) * 9 // 10:][:count]
            return text, "%s (the lesson's copy is the same: %s)" % (path, "yes" if text == copy else "NO")
    return copy, "the lesson's copy (no tinyshakespeare.txt here)"


def residual(m, text, windows=4, prompt="ROMEO:", letters=34, temperature=0.8, seed=1):
    """tiny_4_Residual_Adds's figures, in its formats: each block's shares of the notebook
    going out and its size, for each letter of text; their means; then, with both adds and
    without each, the loss over `windows` windows of the validation text and a line written."""
    dot = lambda a, b: sum(x * y for x, y in zip(a, b))
    size = lambda v: math.sqrt(dot(v, v))
    read = read_text(m, [m["vocab"].index(c) for c in text])
    means = [[0.0] * 7 for _ in range(BLOCKS)]
    for t, (parts, _) in enumerate(read):
        line = "  %2d %s " % (t, "_" if text[t] == " " else text[t])
        for b, (came_in, attention, network, out) in enumerate(parts):
            shares = [dot(part, out) / dot(out, out) for part in (came_in, attention, network)]
            sizes = [size(part) for part in (came_in, attention, network, out)]
            means[b] = [a + c / len(text) for a, c in zip(means[b], shares + sizes)]
            line += ("  " if b == 0 else "    ") + "%6.1f%% %8.1f%% %6.1f%% %6.2f" % (
                100 * shares[0], 100 * shares[1], 100 * shares[2], sizes[3])
        print(line)
    for b, v in enumerate(means):
        print("  block %d: came in %.1f%%, attention %.1f%%, network %.1f%%; sizes %.2f + %.2f + %.2f -> %.2f" % (
            b + 1, 100 * v[0], 100 * v[1], 100 * v[2], v[3], v[4], v[5], v[6]))
    valid, where = validation_slice(windows * SEATS + 1)
    ids = [m["vocab"].index(c) for c in valid]
    print("  %-26s %9.4f" % ("(every letter as likely)", math.log(m["V"])))
    for name, adds in (("both adds", (True, True)), ("without the attention add", (False, True)),
                       ("without the network add", (True, False))):
        total = 0.0
        for w in range(windows):
            window = ids[w * SEATS:(w + 1) * SEATS + 1]
            total += sum(next_loss(logits, target) for (_, logits), target in zip(read_text(m, window[:-1], adds),
                                                                                  window[1:]))
        rng, kept = SplitMix64(seed), [[] for _ in range(BLOCKS)]
        line = [m["vocab"].index(c) for c in prompt]
        for i in line[:-1]:
            read_letter(m, kept, i, adds)
        while len(line) < len(prompt) + letters:  # each letter read once: the window is the whole line
            line.append(draw(read_letter(m, kept, line[-1], adds)[1], temperature, rng))
        written = "".join(m["vocab"][i] for i in line).replace("\n", "|")
        print("  %-26s %9.4f   %s" % (name, total / (windows * SEATS), written))
    print("validation text: %d characters from %s" % (len(valid), where))


if __name__ == "__main__":
    model = load(os.environ.get("TINY_MODEL", "chapter_tiny/shakespeare.tiny"))
    if sys.argv[1] == "residual":
        residual(model, sys.argv[2] if len(sys.argv) > 2 else "The bag didn't fit in the car because it was too small")
    elif sys.argv[1] == "mask":
        mask(model, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "score":
        print("mean next-character cross-entropy: %.6f" % score(model, sys.argv[2]))
    else:
        prompt, length, temperature, seed = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
        sys.stdout.write(prompt)
        generate(model, prompt, length, temperature, seed)
        print()
