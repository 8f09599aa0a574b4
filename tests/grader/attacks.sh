#!/usr/bin/env bash
# The attack suite (tests/grader/README.md, "The attack suite"): submissions that try to get
# points without the work, each graded at two seeds against its "// Rule:" line:
#
#   SEED=N bash tests/grader/attacks.sh [--every] [ID...] [KIND...]
#
# KIND is a folder of attacks/; the seeds are N and N + 1 (N random unless given). Over every
# exercise, an "// Exercise: all" attack meets half of them, a half the seed chooses (every
# exercise meets half of those attacks; the next seed takes the other pairs): --every, or naming
# exercises, tries every pair.
# A line per attack, exercise and seed: "ok:", "FAILED:" or "pending:". The rules:
#   under 30%   the total is below 30% of the maximum
#   rejected    the total is 0
#   no gain     at most the starter's total, and results.json unchanged at the end of the run
#   not shown   no gain, and its "// Secret:" text only in results.json's hidden report
# and results.json's score is the terminal's total.
. "$(dirname "$0")/checks.sh"
seed=${SEED:-$(random_seed)} ids= kinds= every=
all_kinds="lookup include takeover gradescope"
while [ $# -gt 0 ]; do
  case "$1" in
  -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --every) every=1 ;;
  *)
    if [ -n "$(exercise_file "$1")" ]; then ids="$ids $(exercise_id_of "$(exercise_file "$1")")"
    elif [ -d "tests/grader/attacks/$1" ] && [ "$1" != lib ] && [ "$1" != class ]; then kinds="$kinds $1"
    else echo "attacks: '$1' is neither an exercise ($(exercise_ids)) nor a kind ($all_kinds)" >&2; exit 2
    fi ;;
  esac
  shift
done
case "$seed" in *[!0-9]*) echo "attacks: SEED must be a whole number, got '$seed'" >&2; exit 2 ;; esac
seeds="$seed $((seed + 1))"
[ -n "$ids" ] && every=1
ids=${ids:-$(exercise_ids)}
kinds=${kinds:-$all_kinds}
# The records (logs, checksums, the checker's build) sit deeper than the attacks look (a
# grading's folder and its parents), out of their reach; the gradings are in $work/jobs.
private=$work/p/r/i/v/a/t/e
records=$private
export GRADER_CACHE=$private/cache TIME_LIMIT=${TIME_LIMIT:-10}
mkdir -p "$private/gradescope"
started=$(date +%s)
record() { mkdir -p "$private${1#$work}" && echo "$private${1#$work}/$2"; }  # record DIR NAME: its private path

# grade_once DIR SEED SUBMISSION CACHE: results.json in DIR/SEED.json, the terminal's text privately.
grade_once() {
  mkdir -p "$1/tmp.$2"
  TMPDIR=$1/tmp.$2 SEED=$2 RESULTS=$1/$2.json GRADER_CACHE=$4 bash tests/grader/grade.sh "$id" "$3" \
    > "$(record "$1" "$2.log")" 2>&1
}
# gradescope_once DIR SEED SUBMISSION: the same in Gradescope's layout (make gradescope), as root.
gradescope_once() {
  local ag=$1/ag.$2 f
  mkdir -p "$ag/submission" "$ag/tmp"
  cp -R "$private/gradescope/$id" "$ag/source"
  for f in "$(dirname "$3")"/*; do sed "s|@AUTOGRADER@|$ag|g" "$f" > "$ag/submission/$(basename "$f")"; done
  chmod -R a+rX "$ag/submission"
  AUTOGRADER=$ag SEED=$2 TMPDIR=$ag/tmp bash tests/run_autograder > "$(record "$1" "$2.log")" 2>&1
  cp "$ag/results/results.json" "$1/$2.json" 2> /dev/null
  echo "$ag/results/results.json" > "$(record "$1" "$2.watch")"
}
json_score() { sed -n 's/^[ {]*"score": *\([0-9.]*\).*/\1/p' "$1" 2> /dev/null | head -n 1; }  # results.json's score
checksum() { if [ -f "$1" ]; then cksum < "$1"; else echo missing; fi; }

base_job() {  # base_job ID: the starter compiles, scores below full and is the base of "no gain"
  local id=$1 file s dir=$work/base/$1
  file=$(exercise_file "$id")
  mkdir -p "$dir/starter" "$dir/solved"
  cut_solutions "$file" > "$dir/starter/$(basename "$file")"
  solved_exercise "$id" "$file" > "$dir/solved/$(basename "$file")"
  for s in $seeds; do
    grade_once "$dir" "$s" "$dir/starter/$(basename "$file")" "$GRADER_CACHE"
    total_of "$(record "$dir" "$s.log")" > "$(record "$dir" "$s.total")"
    if ! grep -q "did not compile" "$(record "$dir" "$s.log")" && [ -s "$(record "$dir" "$s.total")" ] &&
       ! full "$(cat "$(record "$dir" "$s.total")")"; then
      ok "$id: the starter compiles and scores below full, $(cat "$(record "$dir" "$s.total")") at seed $s"
    else failed "$id: the starter should compile and score below full at seed $s" "$(record "$dir" "$s.log")"; fi
  done
}

attack_job() {  # attack_job N ATTACK ID: makes the submission, grades it at both seeds, judges
  local n=$1 attack=$2 id=$3 dir=$work/jobs/$1 file name what rule sub s total json base cache log
  file=$(exercise_file "$id")
  name=$(basename "$file")
  what=$(header_of "$attack" Attack)
  rule=$(header_of "$attack" Rule)
  case "$what" in lookup/*) [ "$rule" = "under 30%" ] ||
    { echo "FAILED: $what $id: a lookup attack's rule must be 'under 30%', not '$rule'"; return; } ;;
  esac
  mkdir -p "$dir/sub"
  export STARTER=$work/base/$id/starter/$name SOLVED=$work/base/$id/solved/$name ROOT=$PWD
  sub=$(submission "$attack" "$id" "$dir/sub")
  case $? in
  0) ;;
  3) echo "pending: $what $id: ${sub#pending: }"; return ;;
  *) echo "FAILED: $what $id: the attack could not be made: $sub"; return ;;
  esac
  # Attacks that may write into the checker's build get a copy of it.
  cache=$GRADER_CACHE
  case "$what" in takeover/* | gradescope/*) cache=$dir/cache; cp -R "$GRADER_CACHE" "$cache" ;; esac
  for s in $seeds; do
    case "$what" in
      gradescope/*) gradescope_once "$dir" "$s" "$sub" ;;
      *) grade_once "$dir" "$s" "$sub" "$cache" ;;
    esac
    log=$(record "$dir" "$s.log")
    total=$(total_of "$log")
    if [[ $what == lookup/* ]] && grep -q "It did not compile\|The compiler's warnings" "$log"; then
      echo "FAILED: $what $id seed $s: it does not build without warnings against the handout: it proves nothing"
      continue
    fi
    json=$(json_score "$dir/$s.json")
    checksum "$dir/$s.json" > "$(record "$dir" "$s.sum")"
    base=$(cat "$(record "$work/base/$id" "$s.total")")
    judge "$what $id seed $s" "$rule" "$total" "$json" "$base" "$dir/$s.json" "$(header_of "$attack" Secret)"
  done
}

# judge WHAT RULE TOTAL JSON BASE RESULTS SECRET: one line.
judge() {
  local what=$1 rule=$2 total=$3 json=$4 base=$5 results=$6 secret=$7 got=${3%/*} max=${3#*/} ok=1 note=
  [ -n "$total" ] || { echo "FAILED: $what: no total in the report (rule: $rule)"; return; }
  case "$rule" in
  "under 30%") [ $((got * 10)) -lt $((max * 3)) ] || ok=0 ;;
  rejected) [ "$got" -eq 0 ] || ok=0 ;;
  "no gain" | "not shown") note=", starter $base"; [ -n "$base" ] && [ "$got" -le "${base%/*}" ] || ok=0 ;;
  *) echo "FAILED: $what: unknown rule '$rule'"; return ;;
  esac
  # results.json writes a test a line: the student sees every line but the hidden test's.
  if [ "$rule" = "not shown" ]; then
    if [ -z "$secret" ] || [ ! -f "$results" ]; then ok=0; note="$note; no Secret line or no results.json"
    elif grep -v '"visibility": "hidden"' "$results" | grep -qF "$secret"; then
      ok=0 note="$note; the student sees '$secret'"
    elif ! grep -qF "$secret" "$results"; then
      ok=0 note="$note; the teacher's report lacks '$secret' too: the attack did not run"
    fi
  fi
  [ "$json" = "$got" ] || { ok=0; note="$note; results.json says ${json:-nothing}"; }
  if [ "$ok" -eq 1 ]; then echo "ok: $what: $total (rule: $rule$note)"
  else echo "FAILED: $what: $total (rule: $rule$note)"; fi
}

unchanged() {  # unchanged N: job N's results.json files are as the grader left them
  local k=$1 s watch
  for s in $seeds; do
    [ -f "$private/jobs/$k/$s.sum" ] || continue
    watch=$work/jobs/$k/$s.json
    [ -f "$private/jobs/$k/$s.watch" ] && watch=$(cat "$private/jobs/$k/$s.watch")
    [ "$(checksum "$watch")" = "$(cat "$private/jobs/$k/$s.sum")" ] ||
      failed "$(cat "$private/jobs/$k.name") seed $s: results.json changed after the grader had finished"
  done
}

suite() {
  local n=0 jobs=() alone= attack k id e=0 a
  for id in $ids; do jobs+=("base_job $id"); done
  in_parallel "${jobs[@]}"
  case " $kinds " in *" gradescope "*)
    if [ "$(id -u)" -ne 0 ]; then
      echo "skipped: gradescope: not root, so the Gradescope layout with a student user cannot be tried here"
      kinds=$(echo $kinds | sed 's/gradescope//')
    else
      for id in $ids; do
        make -s gradescope EX="$id" OUT="$private/gradescope/$id" > "$private/gradescope/$id.log" 2>&1 ||
          failed "make gradescope EX=$id" "$private/gradescope/$id.log"
      done
    fi ;;
  esac
  # Two at a time; "// Runs: alone" ones (they write into files other gradings use) afterwards,
  # when every other grading has finished, so that a rewrite of its files shows.
  # An "all" attack and an exercise pair up when attack number a and exercise number e have
  # a + e + seed even: every pair, at two seeds, takes about 25 minutes of two cores.
  jobs=()
  for id in $ids; do
    e=$((e + 1)) a=0
    for kind in $kinds; do
      for attack in tests/grader/attacks/"$kind"/*; do
        case " $(header_of "$attack" Exercise) " in
        " all ") a=$((a + 1)); [ -n "$every" ] || [ $(((a + e + seed) % 2)) -eq 0 ] || continue ;;
        *" $id "*) ;;
        *) continue ;;
        esac
        n=$((n + 1))
        mkdir -p "$private/jobs" && echo "$(header_of "$attack" Attack) $id" > "$private/jobs/$n.name"
        if [ "$(header_of "$attack" Runs)" = alone ]; then alone="$alone $n:$attack:$id"
        else jobs+=("attack_job $n $attack $id"); fi
      done
    done
  done
  in_parallel ${jobs[@]+"${jobs[@]}"}
  sleep 1
  for k in $(seq 1 "$n"); do case "$alone " in *" $k:"*) ;; *) unchanged "$k" ;; esac; done
  jobs=()
  for k in $alone; do jobs+=("alone_job $k"); done
  in_parallel ${jobs[@]+"${jobs[@]}"}
}
# alone_job N:ATTACK:ID: the attack, a pause as long as a child it leaves lives ("// Lingers:"),
# then its files checked. Two run at once: what one rewrites of the other's shows in the other's line.
alone_job() {
  local n attack id
  IFS=: read -r n attack id <<< "$1"
  attack_job "$n" "$attack" "$id"
  sleep "$(header_of "$attack" Lingers | grep . || echo 1)"
  unchanged "$n"
}

echo "attacks: seeds $seeds (SEED=$seed bash tests/grader/attacks.sh replays them)"
suite > "$private/all" 2>&1
cat "$private/all"
lines_of() { grep -c "^$1:" "$private/all"; }
echo "attacks: $(lines_of ok) ok, $(lines_of FAILED) failed, $(lines_of pending) pending," \
  "in $(($(date +%s) - started)) s (seeds $seeds)"
! grep -q '^FAILED:' "$private/all"
