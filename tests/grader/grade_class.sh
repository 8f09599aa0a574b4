#!/usr/bin/env bash
# Grades a whole class from a learning platform's export (tests/grader/README.md, "Grading a class"):
#
#   make grade-class DIR=export [OUT=grades] [EX="20.5 tiny.2"] [SEED=N] [JOBS=N] [SANDBOX=mode] [ROSTER=file]
#                    [HANDOUT=dir]
#   bash tests/grader/grade_class.sh EXPORT OUT [ID...]
#
# EXPORT is the folder or the .zip as downloaded. Exit 0 when every file handed in was graded, 1 when
# one could not be (or a source file could not be placed), 2 on a usage mistake.
set -u -o pipefail
export LC_ALL=C
here=$PWD
abs() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
. tests/grader/lib.sh
fail() { echo "grade-class: $1" >&2; exit 2; }

if [ "${1:-}" = --one ]; then  # --one OUT LINE: one grading (xargs runs JOBS at once)
  out=$2
  IFS=$'\t' read -r key id file name <<< "$(sed -n "$3p" "$out/.work/jobs")"
  [ -d "$out/.graded/$key" ] && exit 0
  tmp=$(mktemp -d "$out/.work/grading.XXXXXX") || exit 2
  mkdir "$tmp/keep" "$tmp/file" && cp "$file" "$tmp/file/$name" || exit 2
  # The report names the file as the handout does, not by the student's path.
  (cd "$tmp/file" && GRADER_KEEP=$tmp/keep RESULTS=$tmp/results.json SEED=$(cat "$out/seed") \
    bash "$root/tests/grader/grade.sh" "$id" "$name") > "$tmp/report.txt" 2>&1
  echo $? > "$tmp/status"
  rm -rf "$tmp/file"
  [ -d "$out/.graded/$key" ] || mv "$tmp" "$out/.graded/$key" 2> /dev/null  # whole or not at all
  rm -rf "$tmp"
  exit 0
fi

usage="usage: make grade-class DIR=<export or its zip> [OUT=<folder>] [EX=<id>...] [SEED=<n>] [JOBS=<n>]"
usage="$usage [SANDBOX=<mode>] [ROSTER=<file>] [HANDOUT=<folder or zip>]"
case "${1:-}" in -h | --help) echo "$usage"; exit 0 ;; esac
[ -n "${1:-}" ] || fail "DIR is missing: which folder holds the class's export?  $usage"
export_dir=$(abs "$1")
out=$(abs "${2:-grades}")
shift 2 2> /dev/null || shift
[ -e "$export_dir" ] || fail "DIR '$export_dir' is neither a folder nor a zip"
case "$out/" in "$export_dir"/*) fail "OUT '$out' is inside DIR: choose a folder outside the export" ;; esac
roster=${ROSTER:+$(abs "$ROSTER")}
[ -z "$roster" ] || [ -f "$roster" ] || fail "ROSTER '$roster' is not a file"
[ -e "$out" ] && [ ! -f "$out/seed" ] && [ -n "$(ls -A "$out" 2> /dev/null)" ] &&
  fail "OUT '$out' exists and was not written by grade-class; choose another OUT"
jobs=${JOBS:-$(nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)}
case "$jobs" in '' | *[!0-9]* | 0) fail "JOBS must be a whole number of at least 1, got '$jobs'" ;; esac
case "${SEED:-}" in *[!0-9]*) fail "SEED must be a whole number, got '$SEED'" ;; esac
ids=
for ex in "$@"; do
  [ -n "$(exercise_file "$ex")" ] || fail "there is no exercise '$ex'; the exercises: $(exercise_ids)"
  ids="$ids $(exercise_id_of "$(exercise_file "$ex")")"
done
mode=$(GRADER_SANDBOX=${SANDBOX:-${GRADER_SANDBOX:-}} bash tests/grader/sandbox.sh probe)
case "$mode" in
bwrap-uid | bwrap) ;;
uid | none)
  [ "${SANDBOX:-}" = "$mode" ] || fail "this machine's sandbox is '$mode', which does not keep one student's program \
from another's files. Install bubblewrap (apt-get install bubblewrap; it runs without root on most Linux systems), or \
grade in the container (tests/grader/Dockerfile, see tests/grader/README.md); SANDBOX=$mode grades anyway" ;;
*) fail "SANDBOX '$mode' is not one of bwrap-uid, bwrap, uid, none" ;;
esac
export GRADER_SANDBOX=$mode

version=$(grader_version)
mkdir -p "$out/.graded" "$out/.work" || fail "cannot write OUT '$out'"
chmod 700 "$out"  # the teacher's alone: no student's program, in any mode, reads it
w=$out/.work
rm -rf "$w"/grading.* "$w/jobs" "$w/handout"
if [ -n "${HANDOUT:-}" ]; then  # the class's handout, unpacked once: each grading compiles against it (grade.sh)
  given=$HANDOUT
  HANDOUT=$(handout_root "$(abs "$given")" "$w/handout") || fail "HANDOUT '$given' is not make handout's folder or zip"
  export HANDOUT
  version=$( { echo "$version"; cd "$HANDOUT" && find . -type f -print0 | sort -z | xargs -0 cat; } | hash_of -)
fi
find "$w" -maxdepth 1 -name 'cache-*' ! -name "cache-${version:0:16}" -exec rm -rf {} + 2> /dev/null
[ -n "${SEED:-}" ] && echo "$SEED" > "$out/seed"
[ -s "$out/seed" ] || random_seed > "$out/seed"
seed=$(cat "$out/seed")
export GRADER_CACHE=$w/cache-${version:0:16}
mkdir -p "$GRADER_CACHE"
tool=$GRADER_CACHE/gradetool similarity=$GRADER_CACHE/similarity
[ -x "$tool" ] || ${CXX:-g++} -std=c++17 -O1 tests/grader/gradetool.cpp -o "$tool" ||
  fail "cannot build tests/grader/gradetool.cpp"

# --- Which file is whose, and for which exercise (export.sh: found, unplaced, students) -------
: > "$w/roster"
if [ -n "$roster" ]; then
  "$tool" roster "$roster" > "$w/roster" 2> "$w/roster.log" || fail "ROSTER: $(head -n 1 "$w/roster.log")"
fi
bash tests/grader/export.sh "$export_dir" "$w" "$w/roster" || exit 2
platform=$(cat "$w/platform")
[ -s "$w/students" ] ||
  fail "DIR '$export_dir' holds no student's submission (Moodle's, Canvas's or a folder per student)"
[ -n "$ids" ] || ids=$(cut -f2 "$w/found" | sort -u -t. -k1,1 -k2,2n | paste -sd ' ' -)
ids=${ids# }
[ -n "$ids" ] ||
  fail "no file in '$export_dir' is named as an exercise's handout file ($(cut -f1 "$w/names" | paste -sd ' ' -))"

# keys: "student TAB id TAB status TAB path TAB key TAB platform_id TAB late", the key naming a grading
# in .graded. A student's newest files for an exercise (Canvas's -1, -2) are each a line: all graded.
while IFS=$'\t' read -r student pid; do
  for id in $ids; do
    awk -F'\t' -v s="$student" -v id="$id" '$1 == s && $2 == id' "$w/found" | sort -t$'\t' -k3,3r > "$w/mine"
    newest=$(head -n 1 "$w/mine" | cut -f3) late=$(head -n 1 "$w/mine" | cut -f5) lines=0
    while IFS=$'\t' read -r _ _ v path _; do
      [ "$v" = "$newest" ] || continue
      lines=$((lines + 1)) key=
      if ! grep -q '[^[:space:]]' "$path"; then status=empty
      else status=graded key=$id-$(printf '%s %s %s %s\n' "$(hash_of "$path")" "$version" "$seed" "$id" | hash_of -); fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$path" "$key" "$pid" "$late"
    done < "$w/mine"
    if [ "$lines" -eq 0 ]; then  # nothing placed: a file of theirs that could not be, or nothing at all
      status=missing
      cut -f1 "$w/unplaced" | grep -qxF -- "$student" && status=unplaced
      printf '%s\t%s\t%s\t\t\t%s\t\n' "$student" "$id" "$status" "$pid"
    fi
  done
done < "$w/students" > "$w/keys"
# jobs: "key TAB id TAB path TAB handout name" for each grading not yet in .graded.
awk -F'\t' '$5 != "" && !seen[$5]++ { print $5 "\t" $2 "\t" $4 }' "$w/keys" | while IFS=$'\t' read -r key id path; do
  [ -d "$out/.graded/$key" ] || printf '%s\t%s\t%s\t%s\n' "$key" "$id" "$path" "$(basename "$(exercise_file "$id")")"
done > "$w/jobs"
total=$(wc -l < "$w/jobs" | tr -d ' ')
echo "grade-class: $(wc -l < "$w/students" | tr -d ' ') students, exercises $ids, seed $seed, sandbox $mode"
[ -z "${HANDOUT:-}" ] || echo "grade-class: the handout $given, version $(head -n 1 "$HANDOUT/VERSION" 2> /dev/null)"
keys=$(cut -f5 "$w/keys" | grep -v '^$' | sort -u | wc -l)
echo "grade-class: $total to grade, $((keys - total)) already graded, $jobs at once"
if [ "$total" -gt 0 ]; then
  start=$(date +%s)
  seq 1 "$total" | xargs -P "$jobs" -n 1 bash "$root/tests/grader/grade_class.sh" --one "$out" &
  runner=$!
  while [ -t 1 ] && kill -0 "$runner" 2> /dev/null; do  # the progress line, on a terminal only
    graded=0 below=0
    for key in $(cut -f1 "$w/jobs"); do
      [ -f "$out/.graded/$key/status" ] || continue
      graded=$((graded + 1))
      [ "$(cat "$out/.graded/$key/status")" = 0 ] || below=$((below + 1))
    done
    spent=$(( $(date +%s) - start ))
    printf '\r  graded %d/%d, %d below full marks, %ss so far, about %s left   ' "$graded" "$total" "$below" "$spent" \
      "$([ "$graded" -gt 0 ] && echo "$(( spent * (total - graded) / graded ))s" || echo ?)"
    sleep 1
  done
  [ -t 1 ] && printf '\n'
  wait "$runner"
fi

# --- The sheet, the reports, the summary, the copies ------------------------------------
problems=0 others=0 elsewhere=0
# Several files of one student for one exercise were each graded: the higher score counts, the count noted.
points_of() { awk -F'\t' 'NF == 6 { s += ($2 < 0 || $2 > $3) ? 0 : $2 } END { print s + 0 }' "$1/keep/rows"; }
fields() { tr '\t' '\037' < "$1"; }  # bash's read merges empty tab-separated fields, not these
while IFS=$'\037' read -r student id status path key pid late; do
  score=-1
  [ -n "$key" ] && [ "$(cat "$out/.graded/$key/status" 2> /dev/null || echo 2)" -le 1 ] &&
    score=$(points_of "$out/.graded/$key")
  rel=${path#"$export_dir"/} && rel=${rel#"$w/export"/}
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$path" "$key" "$pid" "$late" "$score" "$rel"
done < <(fields "$w/keys") | awk -F'\t' -v OFS='\t' '
  { k = $1 SUBSEP $2 }
  !(k in best) { order[++n] = k }
  !(k in best) || $8 > score[k] { best[k] = $1 OFS $2 OFS $3 OFS $4 OFS $5 OFS $6 OFS $7; score[k] = $8 }
  { count[k]++; files[k] = files[k] (count[k] > 1 ? ", " : "") $9 " (" ($8 < 0 ? "not graded" : $8 " points") ")" }
  END { for (i = 1; i <= n; i++) print best[order[i]], count[order[i]], files[order[i]] }' > "$w/chosen"
while IFS=$'\037' read -r student id status path key pid late count files; do
  graded=
  if [ "$status" = graded ]; then
    graded=$out/.graded/$key
    if [ ! -f "$graded/status" ] || [ "$(cat "$graded/status")" -gt 1 ]; then
      status=error problems=1
      echo "grade-class: $student, $id: $(head -n 1 "$graded/report.txt" 2> /dev/null || echo 'not graded')" >&2
    fi
    if [ -f "$graded/keep/needs-version" ]; then status=needs-version elsewhere=$((elsewhere + 1))
    elif [ -f "$graded/keep/other-handout" ]; then  # its report says so; did not compile may not be the student's
      others=$((others + 1))
      head -n 1 "$graded/keep/rows" 2> /dev/null | grep -q 'did not compile' && status=other-handout
    fi
    mkdir -p "$out/students/$student"
    if [ "$count" -gt 1 ]; then
      echo "grade-class: $student, $id: $count files, the higher score counts: $files" >&2
      echo "$count files were handed in for exercise $id, each graded: $files. The higher score counts; its report:"
    fi > "$out/students/$student/$id.txt"
    cat "$graded/report.txt" >> "$out/students/$student/$id.txt" 2> /dev/null
    cp "$graded/results.json" "$out/students/$student/$id.json" 2> /dev/null
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$student" "$id" "$status" "$seed" "$graded" "$pid" "$late"
done < <(fields "$w/chosen") > "$w/sheet"
[ -x "$similarity" ] || ${CXX:-g++} -std=c++17 -O2 tests/grader/similarity.cpp -o "$similarity" ||
  fail "cannot build tests/grader/similarity.cpp"
for id in $ids; do exercise_points "$id" | sed "s/^/$id	/"; done > "$w/points"
"$tool" sheet "$w/sheet" "$w/points" "$out" "$platform" ${roster:+"$roster"} ||
  fail "cannot write the grade sheet in '$out'"
for id in $ids; do similarity_base "$id" "$w/base/$id"; done > "$w/manifest"
# With each file, the bits of its answers to the hidden tests (grade.sh's answers), as similarity.cpp compares them.
awk -F'\t' -v graded="$out/.graded" '$3 != "empty" && $4 != "" {
  print $2 "\tstudent\t" $1 "\t" $4 "\t" ($5 == "" ? "" : graded "/" $5 "/keep/answers") }' "$w/chosen" >> "$w/manifest"
"$similarity" "$w/manifest" "$out/similarity.csv" "$out/similarity.html" > "$w/similarity.log" 2>&1 ||
  fail "similarity: $(head -n 1 "$w/similarity.log")"
echo "grade-class: the most alike pairs (similarity.csv; similarity.html shows them side by side):"
sed -n '2,6p' "$out/similarity.csv" | tr -d '\r' | sed 's/^/    /'
# Every file that could not be placed, listed whole; a source file among them fails the run.
printf 'student\tplatform_id\tfile\twhy\n' | cat - "$w/unplaced" > "$out/unplaced.tsv"
placed="every file placed"
if [ -s "$w/unplaced" ]; then
  echo "grade-class: not graded, as no file of an exercise ($out/unplaced.tsv):"
  awk -F'\t' '{ print "    " $1 ": " $3 " (" $4 ")" }' "$w/unplaced"
  sources=$(cut -f3 "$w/unplaced" | grep -ciE '\.(cpp|hpp|h)$')
  placed="$(wc -l < "$w/unplaced" | tr -d ' ') files not placed, $sources of them source files (unplaced.tsv)"
  [ "$sources" -eq 0 ] || problems=1
fi
[ "$others" -eq 0 ] || echo "grade-class: $others files look written against another handout (their reports say why;" \
  "other-handout where they did not compile): grade them with HANDOUT=<the folder or zip of the handout they came from>"
if [ "$elsewhere" -gt 0 ]; then
  commit=$(head -n 1 "$HANDOUT/VERSION" 2> /dev/null) v=/tmp/v
  how="make grade-class DIR=$export_dir HANDOUT=$given in the checkout the handout came from"
  [[ $commit =~ ^[0-9a-f]{40}$ ]] && v=/tmp/v${commit:0:12} &&
    how="git worktree add $v $commit && make -C $v grade-class DIR=$export_dir HANDOUT=$(abs "$given")"
  echo "grade-class: $elsewhere files cannot be graded against this handout here (needs-version, reports say why):" \
    "grade them there: $how"
fi
echo "grade-class: $out/grades.csv; $placed"
exit "$problems"
