#!/usr/bin/env python3
"""Copies found by tests/grader/similarity.cpp beside sim_c++ and Dolos, on one exercise of one class.

usage: similarity_peers.py WORK OURS DOLOS_RUNNER CLASS EXERCISE SET HANDOUT_MANIFEST

CLASS is a folder with a truth.tsv: either the project's own (exercise, file, copy_of, files in
CLASS/<exercise>/, copy_of a file's stem) or the blind class's (exercise, file, copy_of, set, notes,
paths under CLASS). SET is own (the project's class), train (the files of set train) or a held-out
set, heldout or heldout2 (the files of train and of that set, and the originals of its copies; only
the copied pairs with a file of that set in them count). HANDOUT_MANIFEST is what similarity_base
printed: the handout's base files and the reference.

Two files are a copied pair when they come from one original (a copy and its original, two copies of one,
a reference copy and the reference); every other pair is independent. For each tool it prints how many
copied pairs score at or below the highest independent pair, the lowest copied, the highest independent
and the AUC (the chance that a copied pair outscores an independent one, ties counting half).
ONLY=ours (or another tool's name) measures that tool alone.
"""
import csv
import os
import re
import subprocess
import sys

work, ours, dolos, class_dir, exercise, which, handout_manifest = sys.argv[1:]
REFERENCE = "reference"


def truth_rows():
    """(file path under class_dir, copy_of path or '-' or 'reference', set) for this exercise."""
    rows = []
    lines = [line.rstrip("\n") for line in open(os.path.join(class_dir, "truth.tsv"), encoding="utf-8")]
    lines = [line.split("\t") for line in lines if line and not line.startswith("#")]
    own = len(lines[0]) == 3  # the project's class: exercise, file, copy_of
    for fields in lines:
        if fields[0] != exercise:
            continue
        if own:  # the project's class: bare file names, copy_of a stem
            path, copy_of, subset = exercise + "/" + fields[1], fields[2], "train"
            if copy_of not in ("-", REFERENCE):
                copy_of = exercise + "/" + copy_of + ".cpp"
        else:
            path, copy_of, subset = fields[1], fields[2], fields[3]
        rows.append((path, copy_of, subset))
    return rows


def files_and_origins():
    rows = truth_rows()
    copy_of = {path: of for path, of, _ in rows}

    def origin(path):
        seen = set()
        while copy_of.get(path, "-") not in ("-",) and path not in seen:
            seen.add(path)
            path = copy_of[path]
        return path

    held_out = {path for path, _, subset in rows if subset == which != "train"}
    originals = {origin(path) for path in held_out}  # a held-out copy of another set's file is measured with it
    kept = [(path, subset) for path, _, subset in rows if subset == "train" or path in held_out | originals]
    return {path: (origin(path), subset) for path, subset in kept}


base, reference = [], None
for line in open(handout_manifest, encoding="utf-8"):
    _, role, _, path = line.rstrip("\n").split("\t")
    if role == "base":
        base.append(path)
    elif role == "reference":
        reference = path
files = files_and_origins()
files[REFERENCE] = (REFERENCE, "train")
path_of = {name: (reference if name == REFERENCE else os.path.join(class_dir, name)) for name in files}
names = sorted(files)
pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
copied = [p for p in pairs if files[p[0]][0] == files[p[1]][0] and
          (which in ("own", "train") or which in (files[p[0]][1], files[p[1]][1]))]
independent = [p for p in pairs if files[p[0]][0] != files[p[1]][0]]
os.makedirs(work, exist_ok=True)


def run(command):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit("similarity_peers: %s failed: %s" % (command[0], done.stderr.strip()[:300]))
    return done.stdout


def ours_scores():
    manifest = os.path.join(work, "manifest.tsv")
    answers = {}  # each file's answers' bits, as grade-class gives them (bench_similarity.sh)
    if os.environ.get("SIMILARITY_ANSWERS"):
        for line in open(os.environ["SIMILARITY_ANSWERS"], encoding="utf-8"):
            path, kept = line.rstrip("\n").split("\t")
            answers[os.path.normpath(path)] = kept
    with open(manifest, "w", encoding="utf-8") as out:
        out.write(open(handout_manifest, encoding="utf-8").read())
        for name in names:
            if name != REFERENCE:
                out.write("%s\tstudent\t%s\t%s\t%s\n" % (exercise, name, path_of[name],
                                                         answers.get(os.path.normpath(path_of[name]), "")))
    csv_path = os.path.join(work, "ours.csv")
    run([ours, manifest, csv_path, os.path.join(work, "ours.html")])
    score = {}
    for row in list(csv.reader(open(csv_path, newline="", encoding="utf-8")))[1:]:
        b = REFERENCE if row[2] == "(reference solution)" else row[2]
        score[frozenset((row[1], b))] = float(row[3])
    return score


def sim_scores(paths):
    """sim_c++ -p on every pair alone, both ways (-a -e): a pair's score is the larger share."""
    listed = [paths[n] for n in names]
    back = {p: n for n, p in paths.items()}
    score = {}
    for line in run(["sim_c++", "-p", "-a", "-e", "-s", "-t", "1", "-T"] + listed).splitlines():
        m = re.match(r"^(.*) consists for (\d+) % of (.*) material$", line)
        if m:
            key = frozenset((back[m.group(1)], back[m.group(3)]))
            score[key] = max(score.get(key, 0.0), int(m.group(2)) / 100.0)
    return score


def sim_without_base():
    """The base code blanked out of each file first: the lines sim_c++ -n finds in the handout's files."""
    paths = {}
    for name in names:
        text = open(path_of[name], encoding="utf-8", errors="replace").read().split("\n")
        runs = run(["sim_c++", "-n", "-S", "-T", path_of[name], "/"] + base)
        for m in re.finditer(r"^(.*): line (\d+)-(\d+)\s*\|", runs, re.M):
            if m.group(1).strip() == path_of[name]:
                for k in range(int(m.group(2)) - 1, min(int(m.group(3)), len(text))):
                    text[k] = ""
        paths[name] = os.path.join(work, "sim-base", name.replace("/", "_"))
        os.makedirs(os.path.dirname(paths[name]), exist_ok=True)
        open(paths[name], "w", encoding="utf-8").write("\n".join(text))
    return sim_scores(paths)


def dolos_scores(template):
    listed = [path_of[n] for n in names]
    back = {os.path.abspath(p): n for n, p in path_of.items()}
    out = run(["node", dolos] + (["--ignore", template] if template else []) + listed)
    score = {}
    for line in out.splitlines():
        a, b, similarity = line.split("\t")
        score[frozenset((back[os.path.abspath(a)], back[os.path.abspath(b)]))] = float(similarity)
    return score


def template_file():
    path = os.path.join(work, "template.cpp")
    with open(path, "w", encoding="utf-8") as out:
        for b in base:
            out.write(open(b, encoding="utf-8").read() + "\n")
    return path


def figures(score):
    c = [score.get(frozenset(p), 0.0) for p in copied]
    i = [score.get(frozenset(p), 0.0) for p in independent]
    high = max(i)
    below = sum(1 for x in c if x <= high)
    auc = sum((x > y) + 0.5 * (x == y) for x in c for y in i) / (len(c) * len(i))
    return below, min(c), high, auc


tools = [("ours", ours_scores), ("sim_c++ whole", lambda: sim_scores(path_of)),
         ("sim_c++ base", sim_without_base), ("Dolos whole", lambda: dolos_scores(None)),
         ("Dolos base", lambda: dolos_scores(template_file()))]
where = os.path.relpath(class_dir)
if not copied or not independent:
    sys.exit("similarity_peers: %s, %s: %d copied and %d independent pairs, too few to measure"
             % (which, exercise, len(copied), len(independent)))
for tool, scores in tools:
    if os.environ.get("ONLY", tool) != tool:
        continue
    below, low, high, auc = figures(scores())
    print("copies, %s, %s, %s: %d of %d at or below the highest independent pair, lowest copied %.3f, "
          "highest independent %.3f, AUC %.3f  (bench_similarity.sh: %s, %d independent pairs)"
          % (which, exercise, tool, below, len(copied), low, high, auc, where, len(independent)))
