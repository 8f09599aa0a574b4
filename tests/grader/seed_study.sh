#!/usr/bin/env bash
# The seed study: does a file's score depend on the seed its hidden inputs are
# drawn from? It must not: the same file gets the same score at every seed.
#
#   bash tests/grader/seed_study.sh [--seeds N] [--seed FIRST] [--only ID]... [--jobs N]
#
# For each exercise (or each --only ID) it grades, at the seeds FIRST ..
# FIRST + N - 1 (N is 10 unless given, FIRST random unless given or SEED):
# the reference (solved as a student hands it in), every wrong and right
# solution of tests/grader/wrong/ and right/ (sed scripts, applied as
# checks.sh's `variant` applies them), and the attack suite's wrong and right
# answers (tests/grader/attacks/{wrong,right}/, made as attacks.sh makes them).
# It prints one row per solution: its scores, and STABLE when every seed gave
# the same total, UNSTABLE otherwise; then a summary. Exit 1 when any solution
# is UNSTABLE. Slow (every solution at every seed is a grading of a second or
# two): not part of make test. One checker build per exercise, in
# GRADER_CACHE (a fresh folder unless given: a cache built from older tests
# files would grade against them).
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 2
. tests/grader/lib.sh
. tests/grader/attacks/lib/build.sh

count=10 first=${SEED:-} only='' slots=2
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) count=${2:-}; shift ;;
    --seed) first=${2:-}; shift ;;
    --only)
      [ -n "$(exercise_file "${2:-}")" ] || { echo "seed_study: no exercise '${2:-}' ($(exercise_ids))" >&2; exit 2; }
      only="$only $(exercise_id_of "$(exercise_file "$2")")"; shift ;;
    --jobs) slots=${2:-}; shift ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "seed_study: unknown argument '$1' (--help says what it takes)" >&2; exit 2 ;;
  esac
  shift
done
case "$count$slots" in '' | *[!0-9]*) echo "seed_study: --seeds and --jobs take a whole number" >&2; exit 2 ;; esac
case "$first" in '') first=$(( (RANDOM << 15 | RANDOM) % 1000000000 )) ;; *[!0-9]*) echo "seed_study: --seed takes a whole number" >&2; exit 2 ;; esac
[ "$count" -ge 1 ] && [ "$slots" -ge 1 ] || { echo "seed_study: --seeds and --jobs must be at least 1" >&2; exit 2; }
ids=${only:-$(exercise_ids)}
seeds=$(seq "$first" $((first + count - 1)) | paste -sd ' ' -)

work=$(mktemp -d "${TMPDIR:-/tmp}/seed_study.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/tmp" "$work/rows"
export GRADER_CACHE=${GRADER_CACHE:-$work/cache}
. tests/grader/checks.sh
echo "seed_study: seeds $seeds (--seed $first --seeds $count replays them), exercises: ${ids# }"

# study NAME ID SEEDS...: grades the submission that `make_submission` makes
# at each seed and writes "ID<TAB>NAME<TAB>total total ..." into $work/rows.
# make_submission, set by the caller, grades into $log and sets $total.
study() {
  local name=$1 id=$2 s totals=
  for s in $seeds; do
    SEED=$s make_submission || { totals="$totals (not made)"; break; }
    totals="$totals ${total:-none}"
  done
  printf '%s\t%s\t%s\n' "$id" "$name" "${totals# }" > "$work/rows/$id.$(echo "$name" | tr '/ ' '__')"
}

# The three kinds of submission, each graded into $log with $total set.
reference_of() { solved_copy "$study_id"; log=$work/reference.$study_id.log; grade "$study_id" "$solved" "$log"; total=$(total_of "$log"); }
sed_variant() { variant "$study_file" "$study_kind" > /dev/null; }  # checks.sh's, which sets $log and $total
attack_bodies() {  # an attack of function bodies, put into the starter as attacks.sh does
  local dir file name
  dir=$work/attack/$(basename "$study_file")
  file=$(exercise_file "$study_id")
  name=$(basename "$file")
  mkdir -p "$dir"
  [ -f "$dir/starter.cpp" ] || cut_solutions "$file" > "$dir/starter.cpp"
  apply_bodies "$study_file" "$dir/starter.cpp" "$dir/$name" > "$dir/why" 2>&1 || return 1
  log=$dir/log
  grade "$study_id" "$dir/$name" "$log"
  total=$(total_of "$log")
}

# One job: study_job KIND ID FILE.
study_job() {
  study_id=$2 study_file=${3:-}
  case "$1" in
    reference) make_submission() { reference_of; }; study reference "$study_id" ;;
    wrong | right)
      if [ "$1" = wrong ]; then study_kind=Wrong; else study_kind=Right; fi
      make_submission() { sed_variant; }
      study "${study_file#tests/grader/}" "$study_id" ;;
    attack)
      case "$study_file" in
        *.sed) study_kind=Attack; make_submission() { sed_variant; } ;;
        *) make_submission() { attack_bodies; } ;;
      esac
      study "${study_file#tests/grader/}" "$study_id" ;;
  esac
}

# pool JOB...: runs the jobs $slots at a time.
pool() {
  local job k=0
  for job in "$@"; do
    k=$((k + 1))
    ( eval "study_job $job" ) > "$work/job.$k.log" 2>&1 &
    [ $((k % slots)) -eq 0 ] && wait
  done
  wait
}

# First the references (each builds its exercise's checker into the cache), then the rest.
jobs=()
for id in $ids; do
  [ -f "tests/grader/$id.cpp" ] && jobs+=("reference $id")
done
pool "${jobs[@]}"
jobs=()
for id in $ids; do
  for f in tests/grader/wrong/"$id"-*.sed; do [ -f "$f" ] && jobs+=("wrong $id $f"); done
  for f in tests/grader/right/"$id"-*.sed; do [ -f "$f" ] && jobs+=("right $id $f"); done
  for f in tests/grader/attacks/wrong/"$id"-* tests/grader/attacks/right/"$id"-*; do
    [ -f "$f" ] && jobs+=("attack $id $f")
  done
done
[ ${#jobs[@]} -eq 0 ] || pool "${jobs[@]}"

# The table, exercise by exercise, the reference first.
stable=0 unstable=0
printf '%-8s %-48s %-10s %s\n' exercise solution verdict "scores at seeds $seeds"
for id in $ids; do
  for row in "$work/rows/$id.reference" $(ls "$work/rows/$id".* 2> /dev/null | grep -v "/$id\.reference$"); do
    [ -f "$row" ] || continue
    IFS=$'\t' read -r rid name totals < "$row"
    distinct=$(echo "$totals" | tr ' ' '\n' | sort -u | wc -l)
    if [ "$distinct" -eq 1 ] && ! echo "$totals" | grep -q 'none\|not made'; then verdict=STABLE stable=$((stable + 1))
    else verdict=UNSTABLE unstable=$((unstable + 1))
    fi
    printf '%-8s %-48s %-10s %s\n' "$rid" "$name" "$verdict" "$totals"
  done
done
echo "seed_study: $((stable + unstable)) solutions at $count seeds: $stable STABLE, $unstable UNSTABLE (seeds $seeds)"
[ "$unstable" -eq 0 ]
