#!/usr/bin/env bash
# The attack suite (issue 21, point 8): submissions that try to get points
# without the work, or that are right but written differently, each graded at
# two seeds with a rule it must meet:
#
#   bash tests/grader/attacks.sh [--seed N] [--old-names] [--jobs N] [ID...] [KIND...]
#
# KIND is lookup, include, takeover, gradescope, wrong or right (the folders of
# tests/grader/attacks/); no ID or KIND means all of them. The seeds are N and
# N + 1 (N random unless given, or SEED). Each (attack, exercise, seed) prints
# one line, "ok:", "FAILED:" or "pending:" (an attack written for a function
# name the starter does not have yet), and the run ends with the counts.
# Exit 0 when nothing FAILED. --old-names grades the tiny.1-3 attacks, written
# for attend_forward, attend_backward and level_backward, against a grader from
# before the exercises took the header's names (attend, attend_back, level_back).
#
# The rules, from each attack's "// Rule:" line:
#   under 30%   the total is below 30% of the maximum
#   rejected    the total is 0
#   no gain     the total is at most the starter's at the same seed, and
#               results.json is unchanged at the end of the suite's run
#   not shown   no gain, and the "// Secret:" text the program printed is in
#               results.json's hidden teacher's report only, never in a part
#               the student sees
#   below full  the total is below the maximum
#   full        full marks
# and in every grading results.json's score is the terminal's total.
# Runs on bash 3.2 (macOS): no mapfile, no associative arrays, no wait -n.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
. tests/grader/lib.sh
. tests/grader/attacks/lib/build.sh

seed=${SEED:-}
slots=2  # the machine has two cores
ATTACKS_OLD_NAMES=0
ids= kinds=
all_kinds="lookup include takeover gradescope wrong right"
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=${2:-}; shift ;;
    --old-names) ATTACKS_OLD_NAMES=1 ;;
    --jobs) slots=${2:-2}; shift ;;
    -h | --help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *)
      if [ -n "$(exercise_file "$1")" ]; then ids="$ids $(exercise_id_of "$(exercise_file "$1")")"
      elif [ -d "tests/grader/attacks/$1" ] && [ "$1" != lib ]; then kinds="$kinds $1"
      else echo "attacks: '$1' is neither an exercise ($(exercise_ids)) nor a kind ($all_kinds)" >&2; exit 2
      fi ;;
  esac
  shift
done
export ATTACKS_OLD_NAMES
case "$seed" in '') seed=$(( (RANDOM << 15 | RANDOM) % 1000000000 )) ;; *[!0-9]*) echo "attacks: --seed takes a whole number" >&2; exit 2 ;; esac
seeds="$seed $((seed + 1))"
ids=${ids:-$(exercise_ids)}
kinds=${kinds:-$all_kinds}

work=$(mktemp -d "${TMPDIR:-/tmp}/attacks.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# The suite's own records (logs, checksums, the shared reference build) sit
# deeper than the attacks look (the student's folder's parents, and three folders
# below /tmp, TMPDIR and the like), so that an attack on one grading cannot
# rewrite the records of another; its own results.json is where the grader puts it.
private=$work/p/r/i/v/a/t/e
export GRADER_CACHE=$private/cache TIME_LIMIT=${TIME_LIMIT:-10}
mkdir -p "$private/cache" "$private/jobs" "$work/jobs" "$work/base"
started=$(date +%s)
echo "attacks: seeds $seeds (bash tests/grader/attacks.sh --seed $seed replays them)"

# A pool of $slots background jobs, polled (bash 3.2 has no wait -n).
running=
pool_add() {  # pool_add COMMAND...: runs it in the background once a slot is free
  while :; do
    local still= n=0 p
    for p in $running; do
      if kill -0 "$p" 2> /dev/null; then still="$still $p"; n=$((n + 1)); else wait "$p" 2> /dev/null; fi
    done
    running=$still
    [ "$n" -lt "$slots" ] && break
    sleep 0.2
  done
  "$@" &
  running="$running $!"
}
pool_wait() { local p; for p in $running; do wait "$p" 2> /dev/null; done; running=; }

terminal_total() { grep -E '^[0-9]+/[0-9]+ points$' "$1" | tail -n 1 | cut -d' ' -f1; }
json_score() {  # json_score FILE: results.json's score, as a whole number when it is one
  [ -f "$1" ] || return
  if command -v python3 > /dev/null; then
    python3 -c 'import json,sys
try: s = json.load(open(sys.argv[1]))["score"]
except Exception: sys.exit(0)
print(int(s) if float(s) == int(s) else s)' "$1"
  else
    tr -d '\n' < "$1" | sed -n 's/^[^"]*{[ ]*"score": *\([0-9.]*\).*/\1/p' | sed 's/\.0*$//'
  fi
}
checksum() { if [ -f "$1" ]; then cksum < "$1"; else echo missing; fi; }

# grade_once DIR SEED SUBMISSION [CACHE]: grades with grade.sh; results.json in
# DIR/<seed>.json, the terminal's text and the status in the private records.
grade_once() {
  local keep=$private${1#$work}
  mkdir -p "$1/tmp.$2" "$keep"
  TMPDIR=$1/tmp.$2 SEED=$2 RESULTS=$1/$2.json GRADER_CACHE=${4:-$GRADER_CACHE} \
    bash tests/grader/grade.sh "$id" "$3" > "$keep/$2.log" 2>&1
  echo $? > "$keep/$2.status"
}
base_total() { cat "$(record "$work/base/$1" "$2.total")" 2> /dev/null; }  # base_total ID SEED
record() { echo "$private${1#$work}/$2"; }  # record DIR NAME: the private record's path

# The starter's score at each seed: the base of the "no gain" rule.
base_job() {  # base_job ID
  local id=$1 file dir=$work/base/$1 s
  file=$(exercise_file "$id")
  mkdir -p "$dir/starter" "$dir/solved"
  cut_solutions "$file" > "$dir/starter/$(basename "$file")"
  solved_exercise "$id" "$file" > "$dir/solved/$(basename "$file")"
  # The handout's headers (regions cut), for the compile check of attack_job.
  mkdir -p "$dir/handout/file"
  for header in $(needed_headers "$file"); do cut_solutions "$header" "$id" > "$dir/handout/$(basename "$header")"; done
  for s in $seeds; do grade_once "$dir" "$s" "$dir/starter/$(basename "$file")"; done
  for s in $seeds; do terminal_total "$(record "$dir" "$s.log")" > "$(record "$dir" "$s.total")"; done
}

# One attack on one exercise: make the submission, grade it at both seeds, judge.
attack_job() {  # attack_job N ATTACK ID
  local n=$1 attack=$2 id=$3 dir=$work/jobs/$1 file name kind rule what sub s total json base cache why
  file=$(exercise_file "$id")
  name=$(basename "$file")
  what=$(header_of "$attack" Attack)
  kind=${what%%/*}
  rule=$(header_of "$attack" Rule)
  mkdir -p "$dir/sub" "$(record "$dir" "")"
  # A lookup answer is held to the 30% bound whatever its file says.
  if [ "$kind" = lookup ] && [ "$rule" != "under 30%" ]; then
    echo "FAILED: $what $id: a lookup attack's rule must be 'under 30%', not '$rule'" > "$(record "$dir" lines)"
    return
  fi
  : > "$(record "$dir" lines)"
  export STARTER=$work/base/$id/starter/$name SOLVED=$work/base/$id/solved/$name ROOT=$root
  case "$attack" in
    *.sh) why=$(bash "$attack" "$id" "$file" "$dir/sub" 2>&1) ;;
    *.sed)
      why=$(sed -f "$attack" "$SOLVED" 2>&1 > "$dir/sub/$name") &&
        if cmp -s "$SOLVED" "$dir/sub/$name"; then why="it changes nothing in the solved exercise"; false; fi ;;
    *) why=$(apply_bodies "$attack" "$STARTER" "$dir/sub/$name" 2>&1) ;;
  esac
  case $? in
    0) ;;
    3) echo "pending: $what $id: ${why#pending: }" >> "$(record "$dir" lines)"; return ;;
    4) return ;;  # does not apply to this exercise
    *) echo "FAILED: $what $id: the attack could not be made: $why" >> "$(record "$dir" lines)"; return ;;
  esac
  sub=$dir/sub/$name
  # A lookup, wrong or right answer is a student's file: it must build against
  # the handout's headers with the project's warnings, or it proves nothing.
  case "$kind" in lookup | wrong | right)
    cp "$sub" "$work/base/$id/handout/file/$n.cpp"
    if ! ${CXX:-g++} -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$work/base/$id/handout" \
        "$work/base/$id/handout/file/$n.cpp" > "$dir/compile.log" 2>&1; then
      echo "FAILED: $what $id: the attack does not build against the handout's headers: $(grep -m 1 'error' "$dir/compile.log")" >> "$(record "$dir" lines)"
      return
    fi ;;
  esac
  [ -f "$dir/sub/.name" ] && sub=$dir/sub/$(cat "$dir/sub/.name")  # a generator that names it otherwise
  # Attacks that may write into the reference's build get a copy of it.
  cache=$GRADER_CACHE
  if [ "$kind" = takeover ] || [ "$kind" = gradescope ]; then
    cache=$dir/cache
    cp -R "$GRADER_CACHE" "$cache"
  fi
  for s in $seeds; do
    if [ "$kind" = gradescope ]; then gradescope_once "$dir" "$s" "$sub" "$id"
    else grade_once "$dir" "$s" "$sub" "$cache"
    fi
    total=$(terminal_total "$(record "$dir" "$s.log")")
    json=$(json_score "$dir/$s.json")
    checksum "$dir/$s.json" > "$(record "$dir" "$s.sum")"
    judge "$what" "$id" "$s" "$rule" "$total" "$json" "$(base_total "$id" "$s")" "$(cat "$(record "$dir" "$s.status")")" \
      "$dir/$s.json" "$(header_of "$attack" Secret)" >> "$(record "$dir" lines)"
  done
}

# judge WHAT ID SEED RULE TOTAL JSON BASE STATUS RESULTS SECRET: one line.
judge() {
  local what=$1 id=$2 s=$3 rule=$4 total=$5 json=$6 base=$7 status=$8 results=$9 secret=${10} got max ok=1 note=
  got=${total%/*} max=${total#*/}
  if [ -z "$total" ]; then
    echo "FAILED: $what $id seed $s: no total in the report (status $status; rule: $rule)"
    return
  fi
  case "$rule" in
    "under 30%") [ $((got * 10)) -lt $((max * 3)) ] || ok=0 ;;
    rejected) [ "$got" -eq 0 ] || ok=0 ;;
    "no gain") note=", starter $base"; [ -n "$base" ] && [ "$got" -le "${base%/*}" ] || ok=0 ;;
    "not shown")  # results.json writes one test a line: the student sees every line but the hidden test's
      note=", starter $base"; [ -n "$base" ] && [ "$got" -le "${base%/*}" ] || ok=0
      if [ -z "$secret" ] || [ ! -f "$results" ]; then ok=0; note="$note; no Secret line or no results.json"
      elif grep -v '"visibility": "hidden"' "$results" | grep -qF "$secret"; then ok=0; note="$note; the student sees '$secret'"
      elif ! grep -qF "$secret" "$results"; then ok=0; note="$note; the teacher's report lacks '$secret' too: the attack did not run"
      fi ;;
    "below full") [ "$got" -lt "$max" ] || ok=0 ;;  # (that it builds is checked in attack_job)
    full) [ "$got" -eq "$max" ] || ok=0 ;;
    *) echo "FAILED: $what $id: unknown rule '$rule'"; return ;;
  esac
  if [ "$json" != "$got" ]; then ok=0; note="$note; results.json says ${json:-nothing}"; fi
  if [ "$ok" -eq 1 ]; then echo "ok: $what $id seed $s: $total (rule: $rule$note)"
  else echo "FAILED: $what $id seed $s: $total (rule: $rule$note)"
  fi
}

# Gradescope's layout: AUTOGRADER=DIR with source/ (make gradescope), submission/, results/.
gradescope_once() {  # gradescope_once DIR SEED SUBMISSION ID
  local dir=$1 s=$2 sub=$3 id=$4 ag=$1/ag.$2 extra
  mkdir -p "$ag/submission" "$ag/tmp"
  cp -R "$private/gradescope/$id" "$ag/source"
  for extra in "$(dirname "$sub")"/*; do cp "$extra" "$ag/submission/"; done
  # The submission may name the autograder's folder: @AUTOGRADER@ is it.
  for extra in "$ag/submission"/*; do sed -i.bak "s|@AUTOGRADER@|$ag|g" "$extra" && rm -f "$extra.bak"; done
  chmod -R a+rX "$ag/submission"
  AUTOGRADER=$ag SEED=$s TMPDIR=$ag/tmp bash tests/run_autograder > "$(record "$dir" "$s.log")" 2>&1
  echo $? > "$(record "$dir" "$s.status")"
  cp "$ag/results/results.json" "$dir/$s.json" 2> /dev/null
  echo "$ag/results/results.json" > "$(record "$dir" "$s.watch")"
}

# The attacks that apply to one exercise: per-exercise files and generators.
attacks_for() {  # attacks_for ID KIND
  local f ex
  for f in tests/grader/attacks/"$2"/*; do
    [ -f "$f" ] || continue
    ex=$(header_of "$f" Exercise)
    [ "$ex" = "$1" ] || [ "$ex" = all ] && echo "$f"
  done
}

# 1. The starters' scores (and the reference's build, into the cache).
for id in $ids; do pool_add base_job "$id"; done
pool_wait
gradescope_here=0
case " $kinds " in *" gradescope "*)
  if [ "$(id -u)" -eq 0 ]; then
    gradescope_here=1
    for id in $ids; do
      mkdir -p "$private/gradescope"
      make -s gradescope EX="$id" OUT="$private/gradescope/$id" > "$private/gradescope/$id.log" 2>&1 ||
        echo "FAILED: make gradescope EX=$id failed: $(head -n 3 "$private/gradescope/$id.log")" >> "$work/setup"
      rm -f "$private/gradescope/$id.zip"
    done
  else
    echo "skipped: gradescope: not root, so the Gradescope layout with a student user cannot be tried here" >> "$work/setup"
  fi ;;
esac

# unchanged K: job K's results.json files are as the grader left them (checked
# once whatever the attack may have left running has had its time).
unchanged() {
  local k=$1 s sum watch
  for s in $seeds; do
    sum=$(record "$work/jobs/$k" "$s.sum")
    [ -f "$sum" ] || continue
    watch=$work/jobs/$k/$s.json
    [ -f "$(record "$work/jobs/$k" "$s.watch")" ] && watch=$(cat "$(record "$work/jobs/$k" "$s.watch")")
    if [ "$(checksum "$watch")" != "$(cat "$sum")" ]; then
      set -- $(cat "$(record "$work/jobs" "$k.name")")
      echo "FAILED: $(header_of "$1" Attack) $2 seed $s: results.json changed after the grader had finished" >> "$(record "$work/jobs/$k" lines)"
    fi
  done
}

# 2. Every attack, two at a time; those that write into files other gradings
# use ("// Runs: alone") one at a time afterwards, each followed by a pause as
# long as any child it leaves may live ("// Lingers: SECONDS").
n=0 alone=
for id in $ids; do
  for kind in $kinds; do
    [ "$kind" = gradescope ] && [ "$gradescope_here" -eq 0 ] && continue
    for attack in $(attacks_for "$id" "$kind"); do
      n=$((n + 1))
      echo "$attack $id" > "$(record "$work/jobs" "$n.name")"
      if [ "$(header_of "$attack" Runs)" = alone ]; then alone="$alone $n"; else pool_add attack_job "$n" "$attack" "$id"; fi
    done
  done
done
pool_wait
sleep 1
for k in $(seq 1 "$n"); do case " $alone " in *" $k "*) ;; *) unchanged "$k" ;; esac; done
for k in $alone; do
  set -- $(cat "$(record "$work/jobs" "$k.name")")
  attack_job "$k" "$1" "$2"
  sleep "$(header_of "$1" Lingers | grep . || echo 1)"
  unchanged "$k"
done

# 4. The lines in order, and the counts.
[ -f "$work/setup" ] && cat "$work/setup"
k=1
while [ "$k" -le "$n" ]; do cat "$(record "$work/jobs/$k" lines)" 2> /dev/null; k=$((k + 1)); done > "$private/all"
for id in $ids; do
  for s in $seeds; do
    [ -n "$(base_total "$id" "$s")" ] || echo "FAILED: the starter of $id does not grade at seed $s: $(head -n 3 "$(record "$work/base/$id" "$s.log")")"
  done
done >> "$private/all"
cat "$private/all"
oks=$(grep -c '^ok:' "$private/all")
bad=$(grep -c '^FAILED:' "$private/all")
pending=$(grep -c '^pending:' "$private/all")
echo "attacks: $oks ok, $bad failed, $pending pending, in $(( $(date +%s) - started )) s (seeds $seeds)"
[ "$bad" -eq 0 ]
