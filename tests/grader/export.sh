#!/usr/bin/env bash
# Which file of a class's export is whose, and for which exercise (tests/grader/README.md, "Grading a
# class"); grade_class.sh runs it from the repository root:
#
#   bash tests/grader/export.sh EXPORT WORK [ROSTER_LINES]
#
# EXPORT is the folder or the .zip as downloaded (a zip is extracted into WORK/export); ROSTER_LINES
# holds "platform_id TAB full name" lines (gradetool roster). It writes in WORK:
#   platform  moodle, canvas or folders, as the names say
#   students  "student TAB platform_id", every student of the export and of the roster
#   found     "student TAB exercise TAB version TAB path TAB late": a file placed (the highest version newest)
#   unplaced  "student TAB platform_id TAB file TAB why": a file that could not be placed
# Exit 2 with one line on an export it cannot read.
set -u -o pipefail
export LC_ALL=C  # names are matched by their structure (underscores, digits), never by letter classes
. tests/grader/lib.sh
src=$1 w=$2 roster=${3:-/dev/null}
fail() { echo "grade-class: $1" >&2; exit 2; }

# --- A zip is read as downloaded: names are UTF-8 whatever its flag says --------------------
if [ -f "$src" ]; then
  command -v python3 > /dev/null || fail "reading a .zip takes python3; unzip '$src' and give the folder"
  rm -rf "$w/export" && mkdir -p "$w/export" || fail "cannot write '$w/export'"
  python3 - "$src" "$w/export" << 'PY' || exit 2
import os, shutil, sys, zipfile
try:
    archive = zipfile.ZipFile(sys.argv[1])
    broken = archive.testzip()  # every member's checksum
except Exception as e:  # whatever is wrong with it (zlib's errors included), one line
    sys.exit("grade-class: DIR '%s' is neither a folder nor a zip that can be read (%s)" % (sys.argv[1], e))
if broken:
    sys.exit("grade-class: DIR '%s' is a damaged zip (%s fails its checksum)" % (sys.argv[1], broken))
for member in archive.infolist():
    name = member.filename
    if not member.flag_bits & 0x800:  # read as cp437; Canvas and Moodle write UTF-8 without the flag
        try: name = name.encode("cp437").decode("utf-8")
        except UnicodeError: pass
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        continue  # nothing is written outside the folder
    target = os.path.join(sys.argv[2], *parts)
    if member.is_dir():
        os.makedirs(target, exist_ok=True)
        continue
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with archive.open(member) as i, open(target, "wb") as o:
        shutil.copyfileobj(i, o)
PY
  src=$w/export
  # A zip of the export's own folder is read from inside it.
  only=$(find "$src" -mindepth 1 -maxdepth 1 | head -n 2)
  if [ -d "$only" ] && [ "$(printf '%s\n' "$only" | wc -l)" -eq 1 ] && [[ ! ${only##*/} =~ _[0-9]+_assign ]]; then
    src=$only
  fi
fi

# --- Each entry: "platform_id TAB name TAB late TAB path TAB file name", or a student alone ----
moodle='^([^_]*)_([0-9]+)_assignsubmission_([a-z]+)_(.*)$'  # Moodle's name has no "_" (it writes a space)
canvas_tail='^(LATE_)?([0-9]+)_(([0-9]+)_(.+)|text\.html|link\.html)$'
canvas() {  # canvas NAME: Canvas's "name[_LATE]_<user id>_<file id>_<file>" (its text and link pages too)
  local head= tail=$1
  if [[ $1 =~ ^(LATE_)?(anon_[A-Za-z0-9]+)_([0-9]+)_(.+)$ ]]; then  # anonymous grading
    who=${BASH_REMATCH[2]} uid=$who late=${BASH_REMATCH[1]:+late} file=${BASH_REMATCH[4]}
    return 0
  fi
  while [[ $tail == *_* ]]; do  # the first "_<digits>_" ends the name: Canvas takes them out of names
    head=$head${tail%%_*} tail=${tail#*_}
    if [[ $tail =~ $canvas_tail ]]; then
      who=$head uid=${BASH_REMATCH[2]} late=${BASH_REMATCH[1]:+late} file=${BASH_REMATCH[5]:-${BASH_REMATCH[3]}}
      return 0
    fi
    head=${head}_
  done
  return 1
}
entry() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4#"$src"/}" "$5"; }
odd() { printf '(nobody)\t\t%s\ta tab or a line break in its name\n' "$(printf '%s' "${1#"$src"/}" | tr '\t\n' '??')"; }
files() {  # files PID WHO FOLDER: the student, and every file of the folder as handed in
  entry "$1" "$2" "" "" ""
  while IFS= read -r -d '' f; do
    case "$f" in *$'\t'* | *$'\n'*) odd "$f" >> "$w/unplaced" ;; *) entry "$1" "$2" "" "$f" "${f##*/}" ;; esac
  done < <(find "$3" -type f ! -name '.*' -print0 | sort -z)
}
: > "$w/unplaced"
moodles=0 canvases=0
while IFS= read -r -d '' path; do
  base=${path##*/}
  case "$base" in .* | __MACOSX) continue ;; esac  # the last, a Mac's zip's own
  case "$path" in *$'\t'* | *$'\n'*) odd "$path" >> "$w/unplaced"; continue ;; esac
  if [[ $base =~ $moodle ]]; then
    moodles=$((moodles + 1))
    who=${BASH_REMATCH[1]} uid=${BASH_REMATCH[2]} file=${BASH_REMATCH[4]}
    [ "$who" = Participant ] && who="Participant $uid"  # blind marking: Moodle names nobody
    if [ -d "$path" ]; then files "$uid" "$who" "$path"  # "Full Name_<id>_assignsubmission_file_/"
    else entry "$uid" "$who" "" "$path" "$file"; fi
  elif [ -f "$path" ] && canvas "$base"; then
    canvases=$((canvases + 1))
    entry "$uid" "$who" "$late" "$path" "$file"
  elif [ -d "$path" ]; then files "" "$base" "$path"  # a folder per student, named as the teacher likes
  else
    printf '(nobody)\t\t%s\tnamed as neither Moodle nor Canvas names a submission\n' "$base" >> "$w/unplaced"
  fi
done < <(find "$src" -mindepth 1 -maxdepth 1 -print0 | sort -z) > "$w/entries"
if [ "$moodles" -gt 0 ] && [ "$moodles" -ge "$canvases" ]; then echo moodle
elif [ "$canvases" -gt 0 ]; then echo canvas
else echo folders; fi > "$w/platform"

# --- Students (the roster's among them) and their files' exercises --------------------------
exercise_table | while IFS=$'\t' read -r id file; do printf '%s\t%s\n' "$(basename "$file")" "$id"; done > "$w/names"
awk -F'\t' -v OFS='\t' -v w="$w" -v src="$src" -v platform="$(cat "$w/platform")" '
  function folded(name) { name = tolower(name); gsub(/[\001-\057\072-\100\133-\140\173-\177]/, "", name); return name }
  function student(pid, name,   k, b) {  # the first name met is shown: the roster is read first
    k = pid != "" ? "id " pid : "name " folded(name); b = folded(name)
    if (!(k in shown) && (b in byname) && (pid == "" || pids[byname[b]] == "")) {  # matched by name
      k = byname[b]
      if (pids[k] == "") pids[k] = pid
    }
    if (!(k in shown)) { shown[k] = name; pids[k] = pid; order[++n] = k; byname[b] = k }
    return k
  }
  function exercise(name,   dot) {  # "ex5 (1).cpp" (a browser), "ex5-2.cpp" (Canvas: a later upload)
    name = tolower(name); version = 0
    if (name in ids) return ids[name]
    if (platform == "canvas" && match(name, /-[0-9]+\.[a-z0-9]+$/)) {
      dot = RSTART + index(substr(name, RSTART), ".") - 1
      version = substr(name, RSTART + 1, dot - RSTART - 1) + 0
      name = substr(name, 1, RSTART - 1) substr(name, dot)
      if (name in ids) return ids[name]
    }
    if (match(name, / ?\([0-9]+\)\.[a-z0-9]+$/)) {
      name = substr(name, 1, RSTART - 1) substr(name, RSTART + index(substr(name, RSTART), ".") - 1)
      if (name in ids) return ids[name]
    }
    version = 0
    return ""
  }
  FILENAME == w "/names" { ids[tolower($1)] = $2; next }
  FILENAME != w "/entries" { student($1, $2); next }
  {
    k = student($1, $2)
    if ($4 == "") next
    id = exercise($5)
    if (id != "") found[++f] = k OFS id OFS sprintf("%06d", version) OFS src "/" $4 OFS $3
    else lost[++u] = k OFS $4
  }
  END {
    for (i = 1; i <= n; i++) count[shown[order[i]]]++
    for (i = 1; i <= n; i++) {  # two students of one name are told apart by their ids
      k = order[i]; label[k] = shown[k] (count[shown[k]] > 1 && pids[k] != "" ? " (" pids[k] ")" : "")
      print label[k], pids[k] > (w "/students")
    }
    for (i = 1; i <= f; i++) {
      split(found[i], x, OFS); sub(/^[^\t]*/, "", found[i])
      print label[x[1]] found[i] > (w "/found")
    }
    for (i = 1; i <= u; i++) {
      split(lost[i], x, OFS)
      print label[x[1]], pids[x[1]], x[2], "named as no exercise\047s handout file" >> (w "/unplaced")
    }
  }' "$w/names" "$roster" "$w/entries" || fail "cannot read the export's names"
touch "$w/found" "$w/students"
sort "$w/students" -o "$w/students"
