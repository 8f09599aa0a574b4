#!/usr/bin/env bash
# make bench: copies found by tests/grader/similarity.cpp beside the two tools teachers run
# beside a grader, Dick Grune's sim_c++ (Debian's similarity-tester) and Dolos (npm's
# @dodona/dolos-lib), each on whole files and with the handout's code taken out. The classes:
# the project's own (tests/grader/class/similarity/, which the detector was tuned on), the blind
# class's files of set train, then its held-out disguises (tests/grader/class/blind/, set heldout).
# tests/bench/similarity_peers.py measures each exercise; CLASSES=own,train leaves out a set, and
# heldout2, heldout3 and heldout4 are later held-out sets (their truth.tsv rows): each measured once, after
# the detector's last change of its day (2026-12-04, 2026-12-04, 2026-12-05), then spent (the next change
# tuned on it); a next change needs a set written anew.
# The peers are installed when missing, as .ci/run installs Chromium: sim_c++ with apt-get,
# Dolos with npm into BUILD/peers/ (never committed). The grader never calls them.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/grader/lib.sh
classes=${CLASSES:-own,train,heldout,heldout2,heldout3,heldout4}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-similarity.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# Without them (no root for apt-get, no network for npm) nothing is measured, as bench_web.sh does without Chromium.
if ! command -v sim_c++ > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q similarity-tester > "$work/apt.log" 2>&1 ||
    { echo "bench_similarity: cannot install similarity-tester (sim_c++): copies are not measured"; exit 0; }
fi
export PEERS=$build/peers
if [ ! -f "$PEERS/node_modules/@dodona/dolos-lib/package.json" ]; then
  mkdir -p "$PEERS" && npm install --prefix "$PEERS" @dodona/dolos-lib > "$work/npm.log" 2>&1 ||
    { echo "bench_similarity: cannot install @dodona/dolos-lib: copies are not measured"; exit 0; }
fi
ours=$work/similarity
g++ -std=c++17 -O2 tests/grader/similarity.cpp -o "$ours" ||
  { echo "bench_similarity: similarity.cpp does not build"; exit 1; }

# measure CLASS SET: every exercise with files of SET in the class's truth.tsv (the own class's
# rows have no set column), its handout made once.
measure() {
  local class=$1 set=$2 id
  for id in $(awk -F '\t' -v set="$set" '!/^#/ && $1 != "exercise" && (NF < 4 || $4 == set) { print $1 }' \
                "$class/truth.tsv" | sort -u); do
    [ -f "$work/handout/$id.tsv" ] || similarity_base "$id" "$work/handout/$id" > "$work/handout/$id.tsv" ||
      { echo "bench_similarity: the handout of $id"; return 1; }
    python3 tests/bench/similarity_peers.py "$work/$set-$id" "$ours" tests/bench/similarity_dolos.mjs \
      "$class" "$id" "$set" "$work/handout/$id.tsv" || return 1
  done
}
mkdir -p "$work/handout"
status=0
case ",$classes," in *,own,*) measure tests/grader/class/similarity own || status=1 ;; esac
for set in train heldout heldout2 heldout3 heldout4; do
  case ",$classes," in *,$set,*) ;; *) continue ;; esac
  if [ -f tests/grader/class/blind/truth.tsv ]; then measure tests/grader/class/blind "$set" || status=1
  else echo "bench_similarity: no blind class (tests/grader/class/blind/truth.tsv)"; fi
done
exit "$status"
