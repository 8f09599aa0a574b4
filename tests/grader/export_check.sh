#!/usr/bin/env bash
# The exports as a teacher downloads them, for make check-exercises-all (tests/grader/README.md,
# "Grading a class"):
#
#   SEED=N bash tests/grader/export_check.sh      (SEED random unless given)
#
# Exports named as Moodle's mod/assign and Canvas's content_zipper.rb name them (see the README):
# Moodle with and without folders and its zip, Canvas's flat zip with names in five alphabets'
# accented letters, _LATE_, a re-upload's -1, a browser's " (1)", two files for one exercise,
# stray files, and a roster student who handed in nothing. Only 20.5 and tiny.2: five files graded.
. "$(dirname "$0")/checks.sh"
export SEED=${SEED:-$(random_seed)} TIME_LIMIT=${TIME_LIMIT:-3} JOBS=2
echo "export-check: seed $SEED (SEED=$SEED bash tests/grader/export_check.sh replays it)"

f=$work/files
mkdir -p "$f"
r5=$(exercise_file 20.5) r2=$(exercise_file tiny.2)
n5=$(basename "$r5") n2=$(basename "$r2")
solved_exercise 20.5 "$r5" > "$f/solved5.cpp"
solved_exercise tiny.2 "$r2" > "$f/solved2.cpp"
sed -f tests/grader/solutions/wrong/20.5-transposed_scores.sed "$f/solved5.cpp" > "$f/wrong5.cpp"
sed -f tests/grader/solutions/wrong/tiny.2-no_scale.sed "$f/solved2.cpp" > "$f/wrong2.cpp"
{ cat "$f/solved5.cpp"; echo "this draft does not compile"; } > "$f/draft5.cpp"
put() { mkdir -p "$(dirname "$1")" && cp "$f/$2" "$1"; }  # put PATH FILE
# reuse OUT NEW: NEW starts from OUT's gradings and seed, as a rerun would (the five files are graded once).
reuse() { mkdir -p "$2" && cp -R "$1/.graded" "$1/seed" "$2/"; }
class() {  # class EXPORT OUT LOG [VAR=VALUE...]: grade-class, its status in $status
  local export=$1 out=$2 log=$3
  shift 3
  env "$@" bash tests/grader/grade_class.sh "$export" "$out" 20.5 tiny.2 > "$log" 2>&1
  status=$?
}
# row OUT STUDENT ID: the list grade_class.sh hands gradetool sheet, "status seed folder platform_id late",
# and the row's points from grades.csv: "status points/max platform_id late".
row() {
  local line points
  line=$(awk -F'\t' -v s="$2" -v id="$3" '$1 == s && $2 == id { print $3 "\t" $6 "\t" $7 }' "$1/.work/sheet")
  points=$(python3 -c 'import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1], encoding="utf-8"))
     if x["student"] == sys.argv[2] and x["exercise"] == sys.argv[3]]
print(r[0]["points"] + "/" + r[0]["max_points"] if r else "")' "$1/grades.csv" "$2" "$3")
  IFS=$'\t' read -r st pid late <<< "$line"
  echo "$st $points $pid $late" | tr -s ' ' | sed 's/ $//'
}
verdict() {  # verdict STATUS WHAT [LOG]: "ok: WHAT" when STATUS is 0, else "FAILED: WHAT" and LOG
  if [ "$1" -eq 0 ]; then ok "$2"; else failed "$2" "${3:-}"; fi
}
expect() {  # expect OUT WHAT STUDENT ID "ROW": a row as row prints it (points: "full", "below" or n/m)
  local got want=$5
  got=$(row "$1" "$3" "$4")
  case "$want" in
  *" full"*) [[ $got =~ ^graded\ ([0-9]+)/([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
      want=${want/full/${BASH_REMATCH[1]}/${BASH_REMATCH[2]}} ;;
  *" below"*) [[ $got =~ ^graded\ ([0-9]+)/([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] &&
      want=${want/below/${BASH_REMATCH[1]}/${BASH_REMATCH[2]}} ;;
  esac
  [ "$got" = "$want" ] && ok "$2: $3, $4: $got" || failed "$2: $3, $4 should be '$5', got '$got'" "$1/grades.csv"
}

# 1. Canvas, flat: "name[_LATE]_<user id>_<file id>_<file>", the name Canvas's lowercased sortable name
#    with every non-word character dropped (accents kept), a re-upload "<file>-1.cpp".
c=$work/canvas
put "$c/wiśniewskiłukasz_201_9001_$n5" solved5.cpp                      # Polish
put "$c/wiśniewskiłukasz_201_9002_$n2" solved2.cpp
put "$c/yıldızelif_LATE_202_9003_$n5" wrong5.cpp                        # Turkish, late
put "$c/dvořákováalžběta_203_9004_$n5" wrong5.cpp                       # Czech: the -1 is newer
put "$c/dvořákováalžběta_203_9005_${n5%.cpp}-1.cpp" solved5.cpp
put "$c/nguyễnthịhương_204_9006_${n5%.cpp} (1).cpp" solved5.cpp         # Vietnamese: a browser's " (1)"
put "$c/παπαδόπουλοςγιώργος_205_9007_$n2" wrong2.cpp                    # Greek
put "$c/núñezgarcíamaríajosé_206_9008_$n5" solved5.cpp                  # Spanish: two files, one broken
put "$c/núñezgarcíamaríajosé_206_9009_${n5%.cpp} (1).cpp" draft5.cpp
put "$c/lefèvrechloé_207_9010_notes.txt" solved2.cpp                    # French: a stray file only
put "$c/ømandsenkaja_208_9011_main.cpp" solved5.cpp                     # a source file named as no exercise
put "$c/kowalskajan_LATE_210_text.html" solved2.cpp                     # a text entry, not a file
put "$c/o_neilann_211_9012_$n2" solved2.cpp                             # "_" is a word character
put "$c/LATE_anon_Xy12z_9013_$n2" solved2.cpp                           # anonymous grading
put "$c/README.txt" solved2.cpp                                         # nobody's
for k in $(seq 1 11); do put "$c/lefèvrechloé_207_$((9100 + k))_page$k.txt" solved2.cpp; done
class "$c" "$work/out-canvas" "$work/canvas.log"
o=$work/out-canvas
[ "$status" -eq 1 ]
verdict $? "Canvas: status 1 (got $status), as a source file could not be placed" "$work/canvas.log"
expect "$o" Canvas wiśniewskiłukasz 20.5 "graded full 201"
expect "$o" Canvas wiśniewskiłukasz tiny.2 "graded full 201"
expect "$o" Canvas yıldızelif 20.5 "graded below 202 late"
expect "$o" Canvas yıldızelif tiny.2 "missing 0/8 202"
expect "$o" Canvas dvořákováalžběta 20.5 "graded full 203"
expect "$o" Canvas nguyễnthịhương 20.5 "graded full 204"
expect "$o" Canvas παπαδόπουλοςγιώργος tiny.2 "graded below 205"
expect "$o" Canvas núñezgarcíamaríajosé 20.5 "graded full 206"
expect "$o" Canvas lefèvrechloé 20.5 "unplaced 0/10 207"
expect "$o" Canvas ømandsenkaja tiny.2 "unplaced 0/8 208"
expect "$o" Canvas kowalskajan 20.5 "unplaced 0/10 210"
expect "$o" Canvas o_neilann tiny.2 "graded full 211"
expect "$o" Canvas anon_Xy12z tiny.2 "graded full anon_Xy12z late"
python3 -c 'import csv, sys
r = {x["exercise"]: x for x in csv.DictReader(open(sys.argv[1], encoding="utf-8")) if x["student"] == "yıldızelif"}
sys.exit([(x["id"], x["late"]) for _, x in sorted(r.items())] != [("202", "late"), ("202", "")])' "$o/grades.csv" &&
  [ -s "$o/canvas.csv" ]
verdict $? "Canvas: grades.csv has yıldızelif's id, her 20.5 late; canvas.csv is written" "$o/grades.csv"
report=$o/students/núñezgarcíamaríajosé/20.5.txt
head -n 1 "$report" | grep -q "^2 files were handed in" && grep -q "2 files, the higher score counts" "$work/canvas.log"
verdict $? "Canvas: two files for one exercise are both graded, the higher counts, the report and terminal say so" \
  "$report"
unplaced=$(tail -n +2 "$o/unplaced.tsv" | cut -f1-3 | sort)
want=$(printf '%s\n' "(nobody)		README.txt" "kowalskajan	210	kowalskajan_LATE_210_text.html" \
  "lefèvrechloé	207	lefèvrechloé_207_9010_notes.txt" "ømandsenkaja	208	ømandsenkaja_208_9011_main.cpp" |
  cat - <(for k in $(seq 1 11); do echo "lefèvrechloé	207	lefèvrechloé_207_$((9100 + k))_page$k.txt"; done) | sort)
[ "$unplaced" = "$want" ]
verdict $? "Canvas: unplaced.tsv lists the 15 files not placed, with their students" "$o/unplaced.tsv"
[ "$(grep -c '^    .*: .* (' "$work/canvas.log")" -eq 15 ] &&
  tail -n 1 "$work/canvas.log" | grep -q "15 files not placed, 1 of"
verdict $? "Canvas: the terminal lists all 15, and its last line counts them" "$work/canvas.log"

# Every graded row is that file graded alone, at the class's seed.
differ=
for pair in "wiśniewskiłukasz 20.5 solved5" "wiśniewskiłukasz tiny.2 solved2" "yıldızelif 20.5 wrong5" \
  "παπαδόπουλοςγιώργος tiny.2 wrong2" "núñezgarcíamaríajosé 20.5 solved5"; do
  read -r who ex file <<< "$pair"
  grade "$ex" "$f/$file.cpp" "$work/alone.log"
  in_class=$(row "$o" "$who" "$ex" | cut -d' ' -f2)
  alone=$(total_of "$work/alone.log")
  [ "$alone" = "$in_class" ] || differ="$differ $who, $ex: alone $alone, in the class $in_class;"
done
[ -z "$differ" ]
verdict $? "Canvas: each graded row equals its file graded alone (check-exercise at the class's seed)$differ"

# 2. The same export as Canvas zips it (rubyzip: UTF-8 names, the language flag not set), and a damaged zip.
# zip_of FOLDER ZIP FLAG: the folder zipped with bit 11 of every entry's flags set (1) or clear (0).
zip_of() {
  python3 - "$@" << 'PY'
import os, struct, sys, zipfile
folder, path, flag = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    for top, dirs, files in sorted(os.walk(folder)):
        for name in sorted(dirs) + sorted(files):
            full = os.path.join(top, name)
            z.write(full, os.path.relpath(full, folder))
data = bytearray(open(path, "rb").read())
for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # local and central headers' flags
    p = data.find(signature)
    while p >= 0:
        bits, = struct.unpack_from("<H", data, p + at)
        struct.pack_into("<H", data, p + at, bits | 0x800 if flag else bits & ~0x800)
        p = data.find(signature, p + 4)
open(path, "wb").write(data)
PY
}
zip_of "$c" "$work/canvas.zip" 0
reuse "$o" "$work/out-canvas-zip"
class "$work/canvas.zip" "$work/out-canvas-zip" "$work/canvas-zip.log"
[ "$status" -eq 1 ] && grep -q ": 0 to grade" "$work/canvas-zip.log" &&
  cmp -s "$o/grades.csv" "$work/out-canvas-zip/grades.csv" &&
  cmp -s "$o/unplaced.tsv" "$work/out-canvas-zip/unplaced.tsv"
verdict $? "Canvas's zip (UTF-8 names, flag clear) is its folder: nothing new to grade, one sheet" \
  "$work/canvas-zip.log"
head -c 3000 "$work/canvas.zip" > "$work/cut.zip"  # cut short, and one byte of a file changed
python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[200] ^= 0xFF; open(sys.argv[2], "wb").write(d)' \
  "$work/canvas.zip" "$work/changed.zip"
for damaged in cut changed; do
  class "$work/$damaged.zip" "$work/out-$damaged" "$work/$damaged.log"
  [ "$status" -eq 2 ] && [ "$(wc -l < "$work/$damaged.log")" -eq 1 ] && grep -q "zip" "$work/$damaged.log"
  verdict $? "a damaged zip: one line, status 2 ($(head -c 150 "$work/$damaged.log"))" "$work/$damaged.log"
done

# 3. The roster (Canvas's gradebook export): every enrolled student has rows, Björk with nothing handed in.
{ printf '\357\273\277Student,ID,SIS User ID,SIS Login ID,Section,Exercise 5 (4410)\r\n'
  printf '    Points Possible,,,,,10.00\r\n'
  printf '"Wiśniewski, Łukasz",201,s201,lw201,Section A,\r\n'
  printf '"Yıldız, Elif",202,s202,ey202,Section A,\r\n'
  printf '"Guðmundsdóttir, Björk",209,s209,bg209,Section A,\r\n'; } > "$work/roster.csv"
class "$c" "$o" "$work/roster.log" ROSTER="$work/roster.csv"
bjork=$(awk -F'\t' '$6 == 209 { print $1 "\t" $2 "\t" $3 }' "$o/.work/sheet" | sort)
name=$(head -n 1 <<< "$bjork" | cut -f1)
[ "$(cut -f2,3 <<< "$bjork" | tr '\t\n' '  ')" = "20.5 missing tiny.2 missing " ] && [ -n "$name" ] &&
  [ "$(cut -f1 <<< "$bjork" | sort -u | wc -l)" -eq 1 ] && grep -qF "$name" "$o/grades.csv" &&
  ! grep -q '^wiśniewskiłukasz' "$o/.work/sheet" && grep -q ": 0 to grade" "$work/roster.log"
verdict $? "ROSTER: $name, who handed in nothing, has missing rows; the others' rows keep their grades" \
  "$work/roster.log"

# 4. Moodle: a folder per student ("Full Name_<participant id>_assignsubmission_file_/", Moodle writes
#    a space for "_" and drops the apostrophe), without folders (the prefix on each file), and zipped.
m=$work/moodle mf=$work/moodle-flat
put "$m/Łukasz Wiśniewski_301_assignsubmission_file_/$n5" solved5.cpp
put "$m/Łukasz Wiśniewski_301_assignsubmission_file_/$n2" wrong2.cpp
mkdir -p "$m/Zoë OBrien_302_assignsubmission_file_"                     # an empty folder
put "$m/Tom Two_303_assignsubmission_file_/first/$n5" draft5.cpp         # two files for one exercise
put "$m/Tom Two_303_assignsubmission_file_/second/$n5" solved5.cpp
put "$m/Ana Pérez_304_assignsubmission_onlinetext_/onlinetext.html" solved2.cpp
put "$m/Ana Pérez_304_assignsubmission_file_/${n2%.cpp} (1).cpp" solved2.cpp
put "$mf/Łukasz Wiśniewski_301_assignsubmission_file_$n5" solved5.cpp
put "$mf/Łukasz Wiśniewski_301_assignsubmission_file_$n2" wrong2.cpp
put "$mf/Tom Two_303_assignsubmission_file_$n5" draft5.cpp
put "$mf/Tom Two_303_assignsubmission_file_${n5%.cpp} (1).cpp" solved5.cpp
put "$mf/Ana Pérez_304_assignsubmission_onlinetext_onlinetext.html" solved2.cpp
put "$mf/Ana Pérez_304_assignsubmission_file_${n2%.cpp} (1).cpp" solved2.cpp
reuse "$work/out-canvas" "$work/out-moodle"
class "$m" "$work/out-moodle" "$work/moodle.log"
o=$work/out-moodle
[ "$status" -eq 0 ]
verdict $? "Moodle: status 0 (got $status): only onlinetext.html could not be placed" "$work/moodle.log"
expect "$o" Moodle "Łukasz Wiśniewski" 20.5 "graded full 301"
expect "$o" Moodle "Łukasz Wiśniewski" tiny.2 "graded below 301"
expect "$o" Moodle "Zoë OBrien" 20.5 "missing 0/10 302"
expect "$o" Moodle "Tom Two" 20.5 "graded full 303"
expect "$o" Moodle "Ana Pérez" 20.5 "unplaced 0/10 304"
expect "$o" Moodle "Ana Pérez" tiny.2 "graded full 304"
grep -q "Ana Pérez	304	Ana Pérez_304_assignsubmission_onlinetext_/onlinetext.html" "$o/unplaced.tsv" &&
  grep -q "^Participant 303,Tom Two," "$o/moodle.csv"
verdict $? "Moodle: the online text is listed in unplaced.tsv; moodle.csv names Participant 303" "$o/unplaced.tsv"
grade tiny.2 "$f/wrong2.cpp" "$work/alone.log"
[ "$(total_of "$work/alone.log")" = "$(row "$o" "Łukasz Wiśniewski" tiny.2 | cut -d' ' -f2)" ]
verdict $? "Moodle: a graded row equals its file graded alone" "$work/alone.log"
reuse "$o" "$work/out-moodle-flat"
class "$mf" "$work/out-moodle-flat" "$work/moodle-flat.log"
grep -v '^"\?Zoë' "$o/grades.csv" > "$work/folders.csv"
[ "$status" -eq 0 ] && cmp -s "$work/folders.csv" "$work/out-moodle-flat/grades.csv"
verdict $? "Moodle without folders: the same sheet (the empty folder's student aside)" "$work/moodle-flat.log"
zip_of "$m" "$work/moodle.zip" 1
reuse "$o" "$work/out-moodle-zip"
class "$work/moodle.zip" "$work/out-moodle-zip" "$work/moodle-zip.log"
[ "$status" -eq 0 ] && cmp -s "$o/grades.csv" "$work/out-moodle-zip/grades.csv" &&
  grep -q ": 0 to grade" "$work/moodle-zip.log"
verdict $? "Moodle's zip (the flag set) is its folder: nothing new to grade, one sheet" "$work/moodle-zip.log"

echo "export-check: $failures failed (seed $SEED)"
[ "$failures" -eq 0 ]
