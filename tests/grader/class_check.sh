#!/usr/bin/env bash
# The class cases of make check-exercises-all (tests/grader/README.md, "Grading a class"):
#
#   SEED=N bash tests/grader/class_check.sh      (SEED random unless given)
#
# A class of our own for 20.5 and tiny.2, as Moodle and Canvas export it, with the layouts'
# corner cases, copies and five hostile programs (attacks/class/neighbours.inc: a thief, a
# vandal, a fork bomb, an endless loop, a disk filler), graded by grade_class.sh.
. "$(dirname "$0")/checks.sh"
export SEED=${SEED:-$(random_seed)} TIME_LIMIT=${TIME_LIMIT:-3}
token=class-check-mark-$$
trap 'rm -rf "$work" /tmp/"$token"* /var/tmp/"$token"* /dev/shm/"$token"*' EXIT
echo "class-check: seed $SEED (SEED=$SEED bash tests/grader/class_check.sh replays it)"

moodle=$work/moodle canvas=$work/canvas f=$work/files
mkdir -p "$moodle" "$canvas" "$f"
canvas_name() { printf '%s' "$1" | tr -cd 'A-Za-z' | tr 'A-Z' 'a-z'; }  # Canvas's "lastfirst": letters only
put() {  # put NAME USER_ID FILE_NAME CONTENT: the file in both exports
  mkdir -p "$moodle/$1_$2_assignsubmission_file_"
  cp "$4" "$moodle/$1_$2_assignsubmission_file_/$3"
  cp "$4" "$canvas/$(canvas_name "$1")_$2_$(($2 + 5000))_$3"
}
r5=$(exercise_file 20.5) r2=$(exercise_file tiny.2)
n5=$(basename "$r5") n2=$(basename "$r2")
solved_exercise 20.5 "$r5" > "$f/solved5.cpp"
solved_exercise tiny.2 "$r2" > "$f/solved2.cpp"
cut_solutions "$r5" | flat_includes > "$f/starter5.cpp"
sed -f tests/grader/solutions/right/20.5-transposed_product.sed "$f/solved5.cpp" > "$f/right5.cpp"
sed -f tests/grader/solutions/right/tiny.2-double_mixed.sed "$f/solved2.cpp" > "$f/right2.cpp"
sed -f tests/grader/solutions/wrong/20.5-transposed_scores.sed "$f/solved5.cpp" > "$f/wrong5.cpp"
sed -f tests/grader/solutions/wrong/tiny.2-no_scale.sed "$f/solved2.cpp" > "$f/wrong2.cpp"
: > "$f/empty.cpp"
for attack in thief vandal fork_bomb endless disk_filler; do
  { cat "$f/starter5.cpp"
    printf '#define CLASS_ATTACK %s\n#define CLASS_EXPORT "%s"\n#define CLASS_OUT "%s"\n' \
      "$attack" "$moodle" "$work/out-moodle"
    printf '#define CLASS_TOKEN "%s"\n#define CLASS_TESTS_FILE "20.5.cpp"\n' "$token"
    cat tests/grader/attacks/class/neighbours.inc; } > "$f/$attack.cpp"
done
cp -R tests/grader/class/similarity "$f/sim"  # independent solutions and disguised copies
while IFS='|' read -r name uid five two; do
  [ -z "$five" ] || put "$name" "$uid" "$n5" "$f/$five"
  [ -z "$two" ] || put "$name" "$uid" "$n2" "$f/$two"
done << 'CLASS'
Zoë O'Brien|1001|solved5.cpp|solved2.cpp
Ana María Pérez|1002|right5.cpp|right2.cpp
Sam Smith, Jr.|1003|wrong5.cpp|wrong2.cpp
Jean-Luc d'Arcy|1004|starter5.cpp|
Eve Empty|1005|empty.cpp|solved2.cpp
Rae Resubmit|1006|solved5.cpp|
Ines Indep|1020|sim/20.5/indep_a.cpp|sim/tiny.2/indep_a.cpp
Bo Bespoke|1021|sim/20.5/indep_b.cpp|sim/tiny.2/indep_b.cpp
Cy Copy|1022|sim/20.5/copy_of_indep_a_renamed.cpp|sim/tiny.2/copy_of_indep_a_renamed.cpp
Rex Refcopy|1023|sim/20.5/copy_of_reference_loops.cpp|sim/tiny.2/copy_of_reference_loops.cpp
Theo Thief|1010|thief.cpp|
Val Vandal|1011|vandal.cpp|
Fern Forkbomb|1012|fork_bomb.cpp|
Lou Loop|1013|endless.cpp|
Dee Diskfill|1014|disk_filler.cpp|
CLASS
# A resubmission: Canvas keeps every version (-1, -2: the newest counts), Moodle the last.
mv "$canvas/raeresubmit_1006_6006_$n5" "$canvas/raeresubmit_1006_6300_${n5%.cpp}-2.cpp"
cp "$f/starter5.cpp" "$canvas/raeresubmit_1006_6100_$n5"
cp "$f/wrong5.cpp" "$canvas/raeresubmit_LATE_1006_6200_${n5%.cpp}-1.cpp"
# Two files for one exercise (Moodle: two folders inside the student's), and a stray file.
dir="$moodle/Tom Two_1007_assignsubmission_file_"
mkdir -p "$dir/first" "$dir/second" && cp "$f/solved5.cpp" "$dir/first/$n5" && cp "$f/wrong5.cpp" "$dir/second/$n5"
echo "notes" > "$moodle/Zoë O'Brien_1001_assignsubmission_file_/notes.txt"
checksums() {
  (cd "$1" && find . -type f -print0 | sort -z | xargs -0 cat | { sha256sum 2> /dev/null || shasum -a 256; })
}
before=$(checksums "$moodle")
class() {  # class EXPORT OUT LOG [VAR=VALUE...]
  local export=$1 out=$2 log=$3
  shift 3
  env "$@" bash tests/grader/grade_class.sh "$export" "$out" 20.5 tiny.2 > "$log" 2>&1
}
field() {  # field SHEET STUDENT EXERCISE COLUMN
  python3 -c 'import csv, sys
rows = csv.DictReader(open(sys.argv[1], encoding="utf-8"))
r = [x for x in rows if x["student"] == sys.argv[2] and x["exercise"] == sys.argv[3]]
print(r[0][sys.argv[4]] if r else "")' "$@"
}

# 1. The Moodle export, graded whole.
class "$moodle" "$work/out-moodle" "$work/moodle.log" JOBS=2
status=$?
sheet=$work/out-moodle/grades.csv
if [ "$status" -eq 0 ] && [ -f "$sheet" ]; then
  ok "grade-class grades a Moodle export ($(($(wc -l < "$sheet") - 1)) rows)"
else failed "grade-class on a Moodle export (status $status)" "$work/moodle.log"; fi
for expect in "Eve Empty,20.5,empty" "Tom Two,20.5,graded" "Jean-Luc d'Arcy,tiny.2,missing" \
  "Lou Loop,20.5,timed-out"; do
  IFS=, read -r who ex st <<< "$expect"
  got=$(field "$sheet" "$who" "$ex" status)
  [ "$got" = "$st" ] && ok "$who, $ex: $st" || failed "$who, $ex should be $st, got '$got'" "$sheet"
done
got=$(field "$sheet" "Sam Smith, Jr." 20.5 points)
[ "$(field "$sheet" "Zoë O'Brien" 20.5 points)" = 10 ] && [ -n "$got" ] && [ "$got" -lt 10 ] &&
  grep -q '^"Sam Smith, Jr.",[0-9]*,,20.5,' "$sheet" &&
    ok "names keep their accents, apostrophes and commas (RFC 4180 quoting)" ||
  failed "the names or their points in grades.csv" "$sheet"
grep -q "notes.txt" "$work/out-moodle/unplaced.tsv" 2> /dev/null &&
  ok "a file named as no exercise is listed in unplaced.tsv, not graded" ||
  failed "notes.txt should be listed as unplaced" "$work/moodle.log"
# Copies flagged: each copy ranks above the two independent solutions' pair, the reference's copy named.
rank() { grep -n "^$1,$2," "$work/out-moodle/similarity.csv" | cut -d: -f1; }  # rank EXERCISE "A,B": the pair's line
copies_above=1
for ex in 20.5 tiny.2; do
  for copy in "Cy Copy,Ines Indep" "Rex Refcopy,(reference solution)"; do
    [ "$(rank "$ex" "$copy")" -lt "$(rank "$ex" "Bo Bespoke,Ines Indep")" ] || copies_above=0
  done
done
[ "$copies_above" -eq 1 ] && grep -q "Cy Copy" "$work/out-moodle/similarity.html" &&
  ok "similarity.csv ranks each copy above the independent solutions' pair, and names the reference's copy" ||
  failed "copies in similarity.csv" "$work/out-moodle/similarity.csv"
# ... given each graded file's answers (grade.sh keeps them): the copy's bits are its original's.
grep -q '^20\.5,Cy Copy,Ines Indep,[0-9.]*,[0-9]*,0\.000' "$work/out-moodle/similarity.csv" &&
  ok "similarity.csv: Cy Copy's answers to 20.5's tests are Ines Indep's, bit for bit" ||
  failed "answers_differ of Cy Copy and Ines Indep in similarity.csv" "$work/out-moodle/similarity.csv"

# 2. The hostile programs gained nothing and touched nothing of anyone else's.
starter_points=$(field "$sheet" "Jean-Luc d'Arcy" 20.5 points)
for who in "Theo Thief" "Val Vandal"; do
  got=$(field "$sheet" "$who" 20.5 points)
  [ -n "$got" ] && [ "$got" -le "$starter_points" ] &&
    ok "$who gains nothing ($got points, the starter $starter_points)" ||
    failed "$who scores '$got', more than the starter's $starter_points" "$sheet"
done
[ "$(checksums "$moodle")" = "$before" ] && ok "no file of the export was changed" ||
  failed "a file of the export was changed"
left=$(ls -d /tmp/"$token"* /var/tmp/"$token"* /dev/shm/"$token"* 2> /dev/null)
[ -z "$left" ] && ok "no student's program left a file in /tmp, /var/tmp or /dev/shm" ||
  failed "files left behind: $left"

# 3. Every row is what that file scores graded alone, at the class's seed.
differ=
for who in "Zoë O'Brien" "Ana María Pérez" "Sam Smith, Jr." "Jean-Luc d'Arcy" "Rae Resubmit" \
  "Eve Empty"; do
  for ex in 20.5 tiny.2; do
    file=$(find "$moodle/${who}_"*"_assignsubmission_file_" -type f -name "$(basename "$(exercise_file "$ex")")" |
      head -n 1)
    [ -s "$file" ] || continue
    grade "$ex" "$file" "$work/alone.log"
    in_class=$(field "$sheet" "$who" "$ex" points)/$(field "$sheet" "$who" "$ex" max_points)
    alone=$(total_of "$work/alone.log")
    [ "$alone" = "$in_class" ] || differ="$differ $who, $ex: alone $alone, in the class $in_class;"
  done
done
[ -z "$differ" ] && ok "every honest row equals that file graded alone, beside the hostile programs" ||
  failed "rows differ from their files graded alone:$differ"

# 4. Where nothing isolates (SANDBOX=none) the thief steals: a long TIME_LIMIT, as it compiles first.
mkdir -p "$work/none/Theo Thief_1010_assignsubmission_file_" "$work/none/Zoë O'Brien_1011_assignsubmission_file_"
sed "s|$moodle|$work/none|" "$f/thief.cpp" > "$work/none/Theo Thief_1010_assignsubmission_file_/$n5"
cp "$f/solved5.cpp" "$work/none/Zoë O'Brien_1011_assignsubmission_file_/$n5"
env TIME_LIMIT=120 SANDBOX=none bash tests/grader/grade_class.sh "$work/none" "$work/out-none" 20.5 \
  > "$work/none.log" 2>&1
got=$(field "$work/out-none/grades.csv" "Theo Thief" 20.5 points)
[ -n "$got" ] && [ "$got" -gt "$starter_points" ] &&
  ok "without a sandbox the thief takes a neighbour's marks ($got points): the attack is live" ||
  failed "the thief should steal where nothing isolates (got '$got')" "$work/none.log"

# 5. Canvas, killed with SIGKILL and started again: the Moodle run's sheet (Tom Two aside).
(set -m; class "$canvas" "$work/out-canvas" "$work/canvas1.log" JOBS=2 & echo $! > "$work/canvas.pid"; wait) &
for _ in $(seq 1 600); do
  [ "$(ls "$work/out-canvas/.graded" 2> /dev/null | wc -l)" -ge 3 ] && break
  sleep 0.2
done
kill -9 -- "-$(cat "$work/canvas.pid")" 2> /dev/null
wait
done_before=$(ls "$work/out-canvas/.graded" 2> /dev/null | wc -l | tr -d ' ')
class "$canvas" "$work/out-canvas" "$work/canvas2.log" JOBS=2
python3 - "$sheet" "$work/out-canvas/grades.csv" > "$work/compare.log" 2>&1 << 'PY'
import csv, re, sys
moodle = {(re.sub("[^a-z]", "", r["student"].encode("ascii", "ignore").decode().lower()), r["exercise"]): r
          for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))}
canvas = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
bad = [r for r in canvas if any(r[k] != moodle.get((r["student"], r["exercise"]), {}).get(k) for k in r
       if k not in ("student", "id", "late"))]  # the platforms number students apart; Canvas marks late
for r in bad: print("differs:", r, moodle.get((r["student"], r["exercise"])))
print(len(canvas), "rows")
sys.exit(1 if bad or len(canvas) != 30 else 0)
PY
if [ $? -eq 0 ] && [ "$done_before" -ge 1 ]; then
  ok "Canvas: killed after $done_before gradings and started again, the sheet equals the Moodle run's, row for row"
else failed "the Canvas run, killed and resumed (after $done_before gradings)" "$work/compare.log"; fi
[ "$(field "$work/out-canvas/grades.csv" raeresubmit 20.5 points)" = 10 ] &&
  ok "Canvas: the newest resubmission (-2) is the one graded" ||
  failed "Canvas's newest resubmission should count" "$work/out-canvas/grades.csv"

# 6. A second run over the same files regrades nothing and writes the same sheet.
cp "$sheet" "$work/sheet.first"
class "$moodle" "$work/out-moodle" "$work/again.log" JOBS=2
grep -q ": 0 to grade" "$work/again.log" && cmp -s "$sheet" "$work/sheet.first" &&
  ok "a second run regrades nothing and writes the same sheet" || failed "the second run" "$work/again.log"

# 7. The sandboxes that do not isolate are refused unless named; bad input is one line and status 2.
for mode in uid none; do
  GRADER_SANDBOX=$mode bash tests/grader/grade_class.sh "$moodle" "$work/out-$mode" > "$work/refuse.log" 2>&1
  [ $? -eq 2 ] && [ "$(wc -l < "$work/refuse.log")" -eq 1 ] && grep -q "bubblewrap" "$work/refuse.log" &&
    ok "a machine whose sandbox is $mode: grade-class refuses, and says to install bubblewrap" ||
    failed "grade-class with sandbox $mode should refuse" "$work/refuse.log"
done
bash tests/grader/grade_class.sh "$work/no-such-folder" "$work/out-bad" > "$work/bad.log" 2>&1
[ $? -eq 2 ] && [ "$(wc -l < "$work/bad.log")" -eq 1 ] && [ ! -e "$work/out-bad" ] &&
  ok "a DIR that is not a folder: one line, status 2" ||
  failed "grade-class on a missing DIR" "$work/bad.log"
JOBS=0 bash tests/grader/grade_class.sh "$moodle" "$work/out-bad" > "$work/bad.log" 2>&1
[ $? -eq 2 ] && grep -q "JOBS" "$work/bad.log" && ok "JOBS=0: one line, status 2" ||
  failed "grade-class with JOBS=0" "$work/bad.log"

# 8. uid mode, named, on the same hostile class, with an export everyone can read (umask 022).
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
  shared=$(mktemp -d /tmp/class-check-export.XXXXXX) && chmod 755 "$shared"
  for who in "Theo Thief" "Val Vandal" "Zoë O'Brien"; do
    cp -R "$moodle/${who}_"*"_assignsubmission_file_" "$shared/"
  done
  sed -i "s|$moodle|$shared|; s|$work/out-moodle|$work/out-uid|" "$shared/"*/"$n5"
  chmod -R a+rX "$shared"
  before_uid=$(checksums "$shared")
  SANDBOX=uid bash tests/grader/grade_class.sh "$shared" "$work/out-uid" 20.5 > "$work/uid.log" 2>&1
  u=$work/out-uid/grades.csv
  left=$(ls -d /tmp/"$token"* /var/tmp/"$token"* /dev/shm/"$token"* 2> /dev/null)
  if [ "$(field "$u" "Zoë O'Brien" 20.5 points)" = 10 ] &&
     [ "$(field "$u" "Theo Thief" 20.5 points)" -le "$starter_points" ] &&
     [ "$(field "$u" "Val Vandal" 20.5 points)" -le "$starter_points" ] &&
     [ "$(checksums "$shared")" = "$before_uid" ] && [ -z "$left" ]; then
    ok "SANDBOX=uid, an export everyone can read: the thief and the vandal gain nothing, change nothing \
and leave nothing in /tmp"
  else failed "SANDBOX=uid with hostile neighbours ($left)" "$u"; fi
  rm -rf "$shared"
else echo "skipped: SANDBOX=uid (not root)"; fi

echo "class-check: $failures failed (seed $SEED)"
[ "$failures" -eq 0 ]
