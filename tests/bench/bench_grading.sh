#!/usr/bin/env bash
# make bench: what grading costs. CPU seconds (user + system, the grader's and
# the student's processes) of one grading with the checker already built, for
# the reference, the starter and each wrong solution of 20.5 and tiny.2,
# without the sandbox (bubblewrap's namespaces keep the student's processes'
# CPU time from reaching the grader's, so it could not be counted); then
# the wall time of make grade-class over a class of 28 students (one file each,
# for 20.5 or tiny.2, right and wrong), JOBS at the cores, from nothing graded.
set -u
cd "$(dirname "$0")/../.."
. tests/grader/lib.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-grading.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export GRADER_CACHE=$work/cache SEED=1 TMPDIR=$work
mkdir -p "$work/files" "$work/class"

# The files: per exercise the solved reference, the starter, every wrong solution.
files=()
for id in 20.5 tiny.2; do
  ref=$(exercise_file "$id")
  name=$(basename "$ref")
  mkdir -p "$work/files/$id"
  solved_exercise "$id" "$ref" > "$work/files/$id/solved.cpp"
  cut_solutions "$ref" | flat_includes > "$work/files/$id/starter.cpp"
  for sedfile in tests/grader/solutions/wrong/"$id"-*.sed; do
    sed -f "$sedfile" "$work/files/$id/solved.cpp" > "$work/files/$id/$(basename "$sedfile" .sed).cpp"
  done
  # The first grading of each exercise builds its checker; it is not counted.
  bash tests/grader/grade.sh "$id" "$work/files/$id/starter.cpp" > /dev/null 2>&1
  for f in "$work/files/$id"/*.cpp; do files+=("$id $f"); done
done

TIMEFORMAT='%U %S'
: > "$work/cpu"
for entry in "${files[@]}"; do
  { time GRADER_SANDBOX=none bash tests/grader/grade.sh ${entry% *} "${entry#* }" > /dev/null 2>&1; } 2>> "$work/cpu"
done
awk '{ print $1 + $2 }' "$work/cpu" | sort -n > "$work/cpu.sorted"
n=$(wc -l < "$work/cpu.sorted" | tr -d ' ')
median=$(awk -v n="$n" 'NR == int((n + 1) / 2) { printf "%.2f", $1 }' "$work/cpu.sorted")
p90=$(awk -v n="$n" 'NR == int((n * 9 + 9) / 10) { printf "%.2f", $1 }' "$work/cpu.sorted")
echo "grading, CPU per file, median: $median s  (bench_grading.sh: grade.sh on $n files of 20.5 and tiny.2, the checker built, no sandbox)"
echo "grading, CPU per file, 90th percentile: $p90 s  (bench_grading.sh: the same $n gradings)"

# A class of 28: half 20.5, half tiny.2, the files above in turn.
k=0
while [ "$k" -lt 28 ]; do
  for entry in "${files[@]}"; do
    [ "$k" -lt 28 ] || break
    id=${entry% *}
    mkdir -p "$work/class/student $k"
    cp "${entry#* }" "$work/class/student $k/$(basename "$(exercise_file "$id")")"
    k=$((k + 1))
  done
done
jobs=$(nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)
start=$(date +%s)
SEED= GRADER_CACHE= bash tests/grader/grade_class.sh "$work/class" "$work/grades" > "$work/class.log" 2>&1 ||
  { echo "bench_grading: grade-class failed:"; tail -n 5 "$work/class.log"; exit 1; }
echo "grade-class, 28 students, wall: $(( $(date +%s) - start )) s  (bench_grading.sh: make grade-class over 28 files, JOBS=$jobs, nothing graded before)"
