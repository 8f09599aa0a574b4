#!/usr/bin/env bash
# Grades a whole class from a learning platform's export:
#
#   make grade-class DIR=export [OUT=grades] [EX="20.5 tiny.2"] [SEED=N] [JOBS=N]
#   bash tests/grader/grade_class.sh EXPORT OUT [ID...]
#
# EXPORT is Moodle's "Download all submissions" (a folder per student,
# "Full Name_<id>_assignsubmission_file_/", or the same prefix on flat files),
# Canvas's (one flat folder of "lastfirst_<userid>_<subid>_<name>", a
# resubmission's name gaining "-1", "-2": the newest counts), or a plain folder
# per student. Each file's exercise is the one whose handout file has its name
# (ex5_Backward_WQ.cpp is 20.5); what has no such name is listed, never guessed.
#
# OUT gets grades.csv (a row per student and exercise), each student's reports
# (students/<name>/<id>.txt, what that student would see, and <id>.json,
# Gradescope's results.json), summary.txt and summary.svg, and
# similarity.csv and similarity.html (copies flagged). One seed for the whole
# class (OUT/seed keeps it, so every later run uses it). A grading is kept in
# OUT/.graded under the hash of the file, the grader and the seed: a second run
# regrades nothing, and a run that was killed finishes what is left.
#
# Every grading runs in a sandbox of its own (sandbox.sh). The modes that do
# not isolate one student from another (uid, none) are refused unless
# SANDBOX names them. Exit 0 when every present file was graded, 1 when one
# could not be, 2 on a usage mistake (one line).
set -u -o pipefail
export LC_ALL=C
here=$PWD
abs() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
. tests/grader/lib.sh
fail() { echo "grade-class: $1" >&2; exit 2; }

if [ "${1:-}" = --one ]; then  # --one OUT LINE: one grading (run by xargs, JOBS at once)
  out=$2
  IFS=$'\t' read -r key id file name <<< "$(sed -n "$3p" "$out/.work/jobs")"
  final=$out/.graded/$key
  [ -d "$final" ] && exit 0
  tmp=$(mktemp -d "$out/.work/grading.XXXXXX") || exit 2
  mkdir "$tmp/keep" "$tmp/file" && cp "$file" "$tmp/file/$name" || exit 2
  # The report names the file as the handout does, not by the student's path.
  (cd "$tmp/file" && GRADER_KEEP=$tmp/keep RESULTS=$tmp/results.json SEED=$(cat "$out/seed") \
    bash "$root/tests/grader/grade.sh" "$id" "$name") > "$tmp/report.txt" 2>&1
  echo $? > "$tmp/status"
  rm -rf "$tmp/file"
  # Whole or not at all: a grading killed halfway leaves only a .work folder.
  [ -d "$final" ] || mv "$tmp" "$final" 2> /dev/null
  rm -rf "$tmp"
  exit 0
fi

usage="usage: make grade-class DIR=<export> [OUT=<folder>] [EX=<id>...] [SEED=<n>] [JOBS=<n>] [SANDBOX=<mode>]"
case "${1:-}" in -h | --help) echo "$usage"; sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ -n "${1:-}" ] || fail "DIR is missing: which folder holds the class's export?  $usage"
export_dir=$(abs "$1")
out=$(abs "${2:-grades}")
shift 2 2> /dev/null || shift
[ -d "$export_dir" ] || fail "DIR '$export_dir' is not a folder"
case "$out/" in "$export_dir"/*) fail "OUT '$out' is inside DIR: choose a folder outside the export" ;; esac
[ -e "$out" ] && [ ! -f "$out/seed" ] && [ -n "$(ls -A "$out" 2> /dev/null)" ] &&
  fail "OUT '$out' exists and was not written by grade-class; choose another OUT"
jobs=${JOBS:-$(nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)}
case "$jobs" in '' | *[!0-9]* | 0) fail "JOBS must be a whole number of at least 1, got '$jobs'" ;; esac

ids=
for ex in "$@"; do
  file=$(exercise_file "$ex")
  [ -n "$file" ] || fail "there is no exercise '$ex'; the exercises: $(exercise_ids)"
  ids="$ids $(exercise_id_of "$file")"
done

# The sandbox: one student must not reach another's files, so only the
# isolating modes run unless the teacher names another.
mode=$(GRADER_SANDBOX=${SANDBOX:-${GRADER_SANDBOX:-}} bash tests/grader/sandbox.sh probe)
case "$mode" in
bwrap-uid | bwrap) ;;
uid | none)
  if [ "${SANDBOX:-}" != "$mode" ]; then
    fail "this machine's sandbox is '$mode', which does not keep one student's program from another's files. Install bubblewrap (apt-get install bubblewrap; it runs without root on most Linux systems), or grade in the container (tests/grader/Dockerfile, see tests/grader/README.md); SANDBOX=$mode grades anyway"
  fi ;;
*) fail "SANDBOX '$mode' is not one of bwrap-uid, bwrap, uid, none" ;;
esac
export GRADER_SANDBOX=$mode

hash_of() { { sha256sum "$@" 2> /dev/null || shasum -a 256 "$@"; } | cut -c1-64; }
# The grader's version: every file a grading reads but the student's.
version=$(cat tests/grader/*.sh tests/grader/*.hpp tests/grader/*.cpp common/*.hpp chapter*/*.hpp chapter*/exercises/*.cpp |
  hash_of -)

# OUT is the teacher's alone: no student's program, in any mode, reads it.
mkdir -p "$out/.graded" "$out/.work" || fail "cannot write OUT '$out'"
chmod 700 "$out"
rm -rf "$out/.work"/grading.* "$out/.work/jobs"
find "$out/.work" -maxdepth 1 -name 'cache-*' ! -name "cache-${version:0:16}" -exec rm -rf {} + 2> /dev/null
if [ -n "${SEED:-}" ]; then
  case "$SEED" in *[!0-9]*) fail "SEED must be a whole number, got '$SEED'" ;; esac
  echo "$SEED" > "$out/seed"
elif [ ! -s "$out/seed" ]; then
  echo $(( (RANDOM << 15 | RANDOM) % 1000000000 )) > "$out/seed"
fi
seed=$(cat "$out/seed")

# --- Which file is whose, and for which exercise -------------------------------------
# names: "handout file name TAB id" for every exercise.
exercise_table | while IFS=$'\t' read -r id file; do printf '%s\t%s\n' "$(basename "$file")" "$id"; done > "$out/.work/names"
exercise_of() { awk -F'\t' -v n="$1" 'tolower($1) == tolower(n) { print $2; exit }' "$out/.work/names"; }

# found: "student TAB id TAB version TAB path" a file; unplaced: "student TAB path".
: > "$out/.work/found"
: > "$out/.work/unplaced"
: > "$out/.work/students"
place() {  # place STUDENT VERSION PATH NAME
  local id
  printf '%s\n' "$1" >> "$out/.work/students"
  id=$(exercise_of "$4")
  if [ -n "$id" ]; then printf '%s\t%s\t%s\t%s\n' "$1" "$id" "$2" "$3" >> "$out/.work/found"
  else printf '%s\t%s\n' "$1" "${3#"$export_dir"/}" >> "$out/.work/unplaced"; fi
}
canvas='^([A-Za-z0-9-]+)(_[Ll][Aa][Tt][Ee])?_([0-9]+)_([0-9]+)_(.+)$'
moodle='^(.+)_([0-9]+)_assignsubmission_[a-z]+_(.*)$'
while IFS= read -r -d '' entry; do
  base=${entry##*/}
  case "$base" in .* | *$'\t'* | *$'\n'*) continue ;; esac
  if [ -d "$entry" ]; then
    student=$base
    [[ $base =~ $moodle ]] && student=${BASH_REMATCH[1]}
    while IFS= read -r -d '' f; do
      case "$f" in *$'\t'* | *$'\n'*) printf '%s\t%s\n' "$student" "${f#"$export_dir"/}" >> "$out/.work/unplaced"; continue ;; esac
      place "$student" 0 "$f" "${f##*/}"
    done < <(find "$entry" -type f ! -name '.*' -print0 | sort -z)
  elif [[ $base =~ $moodle ]]; then
    place "${BASH_REMATCH[1]}" 0 "$entry" "${BASH_REMATCH[3]}"
  elif [[ $base =~ $canvas ]]; then
    student=${BASH_REMATCH[1]} subid=${BASH_REMATCH[4]} name=${BASH_REMATCH[5]} again=0
    # Canvas names a resubmission's file ex5_Backward_WQ-1.cpp, -2 ...: the highest is the newest.
    if [[ $name =~ ^(.+)-([0-9]+)(\.[A-Za-z0-9]+)$ ]] && [ -n "$(exercise_of "${BASH_REMATCH[1]}${BASH_REMATCH[3]}")" ]; then
      again=${BASH_REMATCH[2]} name=${BASH_REMATCH[1]}${BASH_REMATCH[3]}
    fi
    place "$student" "$(printf '%06d.%012d' "$again" "$subid")" "$entry" "$name"
  else
    printf '%s\t%s\n' "(nobody)" "$base" >> "$out/.work/unplaced"
  fi
done < <(find "$export_dir" -mindepth 1 -maxdepth 1 -print0 | sort -z)

sort -u "$out/.work/students" -o "$out/.work/students"
[ -s "$out/.work/students" ] || fail "DIR '$export_dir' holds no student's submission (Moodle's, Canvas's or a folder per student)"
[ -n "$ids" ] || ids=$(cut -f2 "$out/.work/found" | sort -u -t. -k1,1 -k2,2n | paste -sd ' ' -)
ids=${ids# }
[ -n "$ids" ] || fail "no file in '$export_dir' is named as an exercise's handout file ($(cut -f1 "$out/.work/names" | paste -sd ' ' -))"

# One row per student and exercise: the newest version of each, two files of one
# version are "two-files", none is "missing". table: "student TAB id TAB status TAB path".
: > "$out/.work/table"
while IFS= read -r student; do
  for id in $ids; do
    awk -F'\t' -v s="$student" -v id="$id" '$1 == s && $2 == id' "$out/.work/found" | sort -t$'\t' -k3,3r > "$out/.work/mine"
    count=$(awk -F'\t' 'NR == 1 { v = $3 } $3 == v { n++ } END { print n + 0 }' "$out/.work/mine")
    path=$(head -n 1 "$out/.work/mine" | cut -f4)
    if [ "$count" -eq 0 ]; then status=missing path=
    elif [ "$count" -gt 1 ]; then status=two-files
    elif ! grep -q '[^[:space:]]' "$path"; then status=empty
    else status=graded; fi
    printf '%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$path" >> "$out/.work/table"
  done
done < "$out/.work/students"

# --- The gradings, JOBS at once ----------------------------------------------------------
# keys: the table with each grading's key; jobs: "key TAB id TAB path TAB
# handout name" for each key not yet in .graded (one file handed in twice is graded once).
while IFS=$'\t' read -r student id status path; do
  key=
  [ "$status" = graded ] && key=$id-$(printf '%s %s %s %s\n' "$(hash_of "$path")" "$version" "$seed" "$id" | hash_of -)
  printf '%s\t%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$path" "$key"
done < "$out/.work/table" > "$out/.work/keys"
awk -F'\t' '$5 != "" && !seen[$5]++ { print $5 "\t" $2 "\t" $4 }' "$out/.work/keys" |
  while IFS=$'\t' read -r key id path; do
    [ -d "$out/.graded/$key" ] || printf '%s\t%s\t%s\t%s\n' "$key" "$id" "$path" "$(basename "$(exercise_file "$id")")"
  done > "$out/.work/jobs"
total=$(wc -l < "$out/.work/jobs" | tr -d ' ')
cached=$(( $(cut -f5 "$out/.work/keys" | grep -v '^$' | sort -u | wc -l) - total ))
echo "grade-class: $(wc -l < "$out/.work/students" | tr -d ' ') students, exercises $ids, seed $seed, sandbox $mode"
echo "grade-class: $total to grade, $cached already graded, $jobs at once"
if [ "$total" -gt 0 ]; then
  # The checkers, built by the first grading of each exercise, for this version of the grader only.
  export GRADER_CACHE=$out/.work/cache-${version:0:16}
  start=$(date +%s)
  seq 1 "$total" | xargs -P "$jobs" -n 1 bash "$root/tests/grader/grade_class.sh" --one "$out" &
  runner=$!
  if [ -t 1 ]; then
    while kill -0 "$runner" 2> /dev/null; do
      done_now=$(cut -f1 "$out/.work/jobs" | while read -r k; do [ -d "$out/.graded/$k" ] && echo; done | wc -l | tr -d ' ')
      below=$(cut -f1 "$out/.work/jobs" | while read -r k; do [ -f "$out/.graded/$k/status" ] && [ "$(cat "$out/.graded/$k/status")" != 0 ] && echo; done | wc -l | tr -d ' ')
      spent=$(( $(date +%s) - start ))
      left=?
      [ "$done_now" -gt 0 ] && left=$(( spent * (total - done_now) / done_now ))s
      printf '\r  graded %d/%d, %d below full marks, %ss so far, about %s left   ' "$done_now" "$total" "$below" "$spent" "$left"
      sleep 1
    done
    printf '\n'
  fi
  wait "$runner"
fi

# --- The sheet, the reports, the summary ------------------------------------------------
# sheet: "student TAB id TAB status TAB seed TAB grading folder" for gradetool.
: > "$out/.work/sheet"
problems=0
while IFS=$'\t' read -r student id status path key; do
  graded=
  if [ "$status" = graded ]; then
    graded=$out/.graded/$key
    if [ ! -f "$graded/status" ] || [ "$(cat "$graded/status")" -gt 1 ]; then
      status=error problems=1
      echo "grade-class: $student, $id: $(head -n 1 "$graded/report.txt" 2> /dev/null || echo 'not graded')" >&2
    fi
    mkdir -p "$out/students/$student"
    cp "$graded/report.txt" "$out/students/$student/$id.txt" 2> /dev/null
    cp "$graded/results.json" "$out/students/$student/$id.json" 2> /dev/null
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$seed" "$graded" >> "$out/.work/sheet"
done < "$out/.work/keys"
tool=$out/.work/cache-${version:0:16}/gradetool
[ -x "$tool" ] || { mkdir -p "$(dirname "$tool")" && ${CXX:-g++} -std=c++17 -O1 tests/grader/gradetool.cpp -o "$tool"; } ||
  fail "cannot build tests/grader/gradetool.cpp"
for id in $ids; do exercise_points "$id" | sed "s/^/$id	/"; done > "$out/.work/points"
"$tool" sheet "$out/.work/sheet" "$out/.work/points" "$out" || fail "cannot write the grade sheet in '$out'"
# Copies flagged: every file handed in, against each other and the reference.
similarity=$(dirname "$tool")/similarity
[ -x "$similarity" ] || ${CXX:-g++} -std=c++17 -O2 tests/grader/similarity.cpp -o "$similarity" ||
  fail "cannot build tests/grader/similarity.cpp"
for id in $ids; do similarity_base "$id" "$out/.work/base/$id"; done > "$out/.work/manifest"
awk -F'\t' '$3 != "missing" && $3 != "empty" && $4 != "" { print $2 "\tstudent\t" $1 "\t" $4 }' "$out/.work/keys" >> "$out/.work/manifest"
"$similarity" "$out/.work/manifest" "$out/similarity.csv" "$out/similarity.html" > "$out/.work/similarity.log" 2>&1 ||
  fail "similarity: $(head -n 1 "$out/.work/similarity.log")"
echo "grade-class: the most alike pairs (similarity.csv; similarity.html shows them side by side):"
sed -n '2,6p' "$out/similarity.csv" | sed 's/^/    /'
if [ -s "$out/.work/unplaced" ]; then
  cp "$out/.work/unplaced" "$out/unplaced.tsv"
  echo "grade-class: not graded, named as no exercise's handout file ($out/unplaced.tsv):"
  head -n 10 "$out/unplaced.tsv" | sed 's/\t/: /; s/^/    /'
else rm -f "$out/unplaced.tsv"; fi
echo "grade-class: $out/grades.csv"
exit "$problems"
