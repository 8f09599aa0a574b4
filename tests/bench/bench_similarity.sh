#!/usr/bin/env bash
# make bench: copies found by tests/grader/similarity.cpp beside the two tools teachers run
# beside a grader, Dick Grune's sim_c++ (Debian's similarity-tester) and Dolos (npm's
# @dodona/dolos-lib), each on whole files and with the handout's code taken out. The classes:
# the project's own (tests/grader/class/similarity/, which the detector was tuned on), the blind
# class's files of set train, then its held-out disguises (tests/grader/class/blind/, set heldout).
# Ours is given each file's answers to the hidden tests, as grade-class gives them (below).
# tests/bench/similarity_peers.py measures each exercise; CLASSES=own,train leaves out a set, and
# heldout2 to heldout10 are later held-out sets (their truth.tsv rows): each measured once, after the
# detector's last change of its day (2026-12-04, 2026-12-04, 2026-12-05 seven times), then spent (the next
# change tuned on it); a next change needs a set written anew. heldout9's and 10's writers read no earlier
# file but the two originals they were given (earlier writers read truth.tsv, whose notes name each style).
# The peers are installed when missing, as .ci/run installs Chromium: sim_c++ with apt-get,
# Dolos with npm into BUILD/peers/ (never committed). The grader never calls them.
set -u
if [ "${1:-}" = --answers ]; then  # --answers DIR ID FILE: FILE graded once, its answers kept in DIR by its hash
  . tests/grader/lib.sh
  kept=$2/$(hash_of "$4" | cut -c1-32)-$3
  [ -f "$kept" ] && exit 0
  keep=$(mktemp -d "${TMPDIR:-/tmp}/bench-answers.XXXXXX") || exit 1
  GRADER_KEEP=$keep GRADER_CACHE=$2/cache SEED=1 RESULTS= bash tests/grader/grade.sh "$3" "$4" > /dev/null 2>&1
  { cat "$keep/answers" 2> /dev/null || :; } > "$kept.tmp" && mv "$kept.tmp" "$kept"
  rm -rf "$keep"
  exit 0
fi
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/grader/lib.sh
sets="train heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8 heldout9 heldout10"
classes=${CLASSES:-own,${sets// /,}}
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

# Each file's answers to the hidden tests, as grade-class gives similarity.cpp: every file of both classes
# graded once at one seed (the first run after a change of the tests takes minutes), kept in BUILD under
# the hash of what the answers depend on: the grader's C++ but the detector's, the headers, the exercises.
depends=$(ls tests/grader/*.cpp tests/grader/*.hpp | grep -v /similarity |
  cat - <(ls common/*.hpp chapter*/*.hpp chapter*/exercises/*.cpp) | xargs cat | hash_of - | cut -c1-16)
mkdir -p "$build" && answers=$(cd "$build" && pwd)/similarity-answers/$depends
mkdir -p "$answers/cache" && export GRADER_CACHE=$answers/cache
for class in tests/grader/class/similarity tests/grader/class/blind; do
  awk -F'\t' -v dir="$class" '!/^#/ && $1 != "exercise" && NF >= 3 {
    print $1 "\t" dir "/" (NF == 3 ? $1 "/" $2 : $2) }' "$class/truth.tsv"
done > "$work/files"
echo "bench_similarity: the answers of $(wc -l < "$work/files" | tr -d ' ') files, $(nproc) at once (kept in $answers)"
tr '\t' '\n' < "$work/files" | xargs -n 2 -P "$(nproc)" bash tests/bench/bench_similarity.sh --answers "$answers"
while IFS=$'\t' read -r id file; do
  printf '%s\t%s\n' "$file" "$answers/$(hash_of "$file" | cut -c1-32)-$id"
done < "$work/files" > "$work/answers.tsv"
export SIMILARITY_ANSWERS=$work/answers.tsv

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
for set in $sets; do
  case ",$classes," in *,$set,*) ;; *) continue ;; esac
  if [ -f tests/grader/class/blind/truth.tsv ]; then measure tests/grader/class/blind "$set" || status=1
  else echo "bench_similarity: no blind class (tests/grader/class/blind/truth.tsv)"; fi
done
exit "$status"
