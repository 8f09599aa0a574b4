# tests/grader/lib.sh: what grade.sh, handout.sh, exercises.sh and the checks
# share. Sourced with the repository root as the current folder.
#
# An exercise is a file chapter*/exercises/*.cpp with a line "// Exercise: ID"
# near its top; its tests are tests/grader/ID.cpp.

# Every exercise file, in id order: "ID<TAB>FILE" lines.
exercise_table() {
  local f id
  for f in chapter*/exercises/*.cpp; do
    [ -f "$f" ] || continue
    id=$(sed -n '1,30s|^// Exercise: *\([^ ]*\).*|\1|p' "$f" | head -n 1)
    [ -n "$id" ] && printf '%s\t%s\n' "$id" "$f"
  done | sort -t. -k1,1 -k2,2n
}

exercise_ids() { exercise_table | cut -f1 | paste -sd ' ' -; }

# The file of exercise $1 ("3" is chapter 20's exercise 3), or nothing.
exercise_file() {
  local id=$1
  case "$id" in *[!0-9]* | '') ;; *) id=20.$id ;; esac
  exercise_table | awk -F'\t' -v id="$id" '$1 == id { print $2 }'
}

# The tests of exercise $1 and their points, in the grader's order:
# "name<TAB>points" lines. Read from the calls in tests/grader/$1.cpp
# (grader::compare("name", points, ...), grader::property("name", points, ...),
# grader::printed_output(points, ...)); the one place to change when the
# grader's own list (its --list) is asked instead.
exercise_points() {
  [ -f "tests/grader/$1.cpp" ] || return 2
  awk '
    match($0, /grader::(compare|property)\( *"[^"]*", *[0-9]+/) {
      s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s)
      name = s; sub(/".*/, "", name); points = s; sub(/.*[^0-9]/, "", points)
      print name "\t" points; next
    }
    match($0, /grader::printed_output\( *[0-9]+/) {
      s = substr($0, RSTART, RLENGTH); sub(/.*[^0-9]/, "", s); print "printed_output\t" s
    }' "tests/grader/$1.cpp"
}

# The exercises whose answers exercise FILE's program uses (its "// Builds on:
# ID ..." line): the class handout builds them in from the folders beside it.
builds_on() { sed -n '1,30s|^// Builds on: *||p' "$1" | head -n 1; }

# The exercise's id from its file.
exercise_id_of() { exercise_table | awk -F'\t' -v f="$1" '$2 == f { print $1 }'; }

# Writes FILE with every solution region cut: a "// TODO:" line in the region's
# place, then its "// STUB: code" lines as code (indentation kept). A BEGIN
# without its END, or an END without a BEGIN, is an error (status 2).
# With an exercise id as $2 (grading that exercise), a region of a shared
# header whose BEGIN line says "BEGIN SOLUTION exercise OTHER: ..." (another
# exercise's answer, which this one builds on) keeps its code; only its marker
# and STUB lines go.
# $3 (default $2) is the exercise whose handout folder or grading box the file
# is for: lines from "// BEGIN LEFT OUT exercise ID [ID...]: why" to
# "// END LEFT OUT" go, markers and all, where ID is that exercise (a helper
# that would be its whole answer); for every other exercise only the two
# marker lines go.
cut_solutions() {
  awk -v file="$1" -v grading="${2:-}" -v folder="${3:-${2:-}}" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    /^[ \t]*\/\/ BEGIN LEFT OUT exercise / {
      if (left) { printf "%s:%d: BEGIN LEFT OUT inside another\n", file, NR > "/dev/stderr"; bad = 1; exit 2 }
      ids = $0; sub(/^[ \t]*\/\/ BEGIN LEFT OUT exercise /, "", ids); sub(/:.*/, "", ids)
      left = 1; dropping = folder != "" && index(" " ids " ", " " folder " ") > 0; left_at = NR; next
    }
    /^[ \t]*\/\/ END LEFT OUT/ {
      if (!left) { printf "%s:%d: END LEFT OUT without a BEGIN\n", file, NR > "/dev/stderr"; bad = 1; exit 2 }
      left = 0; dropping = 0; next
    }
    dropping { next }
    /^[ \t]*\/\/ BEGIN SOLUTION/ {
      if (inside || kept) { printf "%s:%d: BEGIN SOLUTION inside another region\n", file, NR > "/dev/stderr"; bad = 1; exit 2 }
      owner = $0; sub(/^[ \t]*\/\/ BEGIN SOLUTION[: ]*/, "", owner)
      if (grading != "" && owner ~ /^exercise [^ :]+:/) {
        sub(/^exercise /, "", owner); sub(/:.*/, "", owner)
        if (owner != grading) { kept = 1; start = NR; next }
      }
      inside = 1; start = NR
      indent = $0; sub(/\/\/.*/, "", indent)
      todo = $0; sub(/^[ \t]*\/\/ BEGIN SOLUTION[: ]*/, "", todo); todo = trim(todo)
      if (todo == "") todo = "write this part (the statement at the top of the file says what)"
      print indent "// TODO: " todo
      next
    }
    kept && /^[ \t]*\/\/ END SOLUTION/ { kept = 0; next }
    kept && /^[ \t]*\/\/ STUB:/ { next }
    kept { print; next }
    /^[ \t]*\/\/ END SOLUTION/ {
      if (!inside) { printf "%s:%d: END SOLUTION without a BEGIN\n", file, NR > "/dev/stderr"; bad = 1; exit 2 }
      inside = 0; next
    }
    inside && /^[ \t]*\/\/ STUB:/ {
      line = $0; lead = line; sub(/\/\/.*/, "", lead)
      sub(/^[ \t]*\/\/ STUB: ?/, "", line)
      print lead line; next
    }
    inside { next }
    { print }
    END {
      if (!bad && (inside || kept)) { printf "%s:%d: BEGIN SOLUTION is never ended\n", file, start > "/dev/stderr"; exit 2 }
      if (!bad && left) { printf "%s:%d: BEGIN LEFT OUT is never ended\n", file, left_at > "/dev/stderr"; exit 2 }
    }' "$1"
}

# The lines of FILE's solution regions other than STUB lines, trimmed, one a line.
solution_lines() {
  awk '
    /^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; next }
    /^[ \t]*\/\/ END SOLUTION/ { inside = 0; next }
    inside && !/^[ \t]*\/\/ STUB:/ { s = $0; sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); if (s != "") print s }
  ' "$1"
}

# A handout keeps everything in one folder, so its includes lose their "../":
# "../tiny_model.hpp" becomes "tiny_model.hpp" (stdin to stdout).
flat_includes() { sed 's|^\([ \t]*#[ \t]*include[ \t]*"\)\(\.\./\)*|\1|'; }

# The headers FILE includes with quotes, found beside it, in its chapter
# folder or in common/, and theirs in turn: one path a line.
needed_headers() {
  local queue=("$1") seen=" " file name dir found candidate
  while [ "${#queue[@]}" -gt 0 ]; do
    file=${queue[0]}
    queue=("${queue[@]:1}")
    dir=$(dirname "$file")
    for name in $(sed -n 's|^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*|\1|p' "$file"); do
      found=
      # "../tiny_model.hpp" from chapter_tiny/exercises/ is chapter_tiny/tiny_model.hpp.
      local near=$dir/$name
      case "$name" in ../*) near=$(dirname "$dir")/${name#../} ;; esac
      for candidate in "$near" "$(dirname "$dir")/$name" "common/$name"; do
        [ -f "$candidate" ] && { found=$candidate; break; }
      done
      [ -n "$found" ] || continue
      case "$seen" in *" $found "*) continue ;; esac
      seen="$seen$found "
      echo "$found"
      queue+=("$found")
    done
  done
}

# The folders an exercise's sources see: its own, its chapter's, common/.
include_flags() {
  local dir
  dir=$(dirname "$1")
  printf '%s\n' "-I$dir" "-I$(dirname "$dir")" "-Icommon"
}

# The exercise file as a student who solved it hands it in. Where the function
# the student writes is the chapter header's own (exercise 15.3's backward, the
# tiny model's layers), the file's region holds only its STUB lines, and the
# header marks the whole function "BEGIN SOLUTION exercise ID: ...": the
# header's code then takes the place of the file's region (inline dropped, since
# the handout's header only declares it). Every other region keeps its code.
solved_exercise() {  # solved_exercise ID FILE
  local id=$1 file=$2 header from_headers
  from_headers=$(mktemp) || return 2
  for header in $(needed_headers "$file"); do
    awk -v id="$id" '
      /^[ \t]*\/\/ BEGIN SOLUTION exercise / { s = $0; sub(/^[ \t]*\/\/ BEGIN SOLUTION exercise /, "", s); sub(/:.*/, "", s); inside = (s == id); next }
      inside && /^[ \t]*\/\/ END SOLUTION/ { inside = 0; next }
      inside && /^[ \t]*\/\/ STUB:/ { next }
      inside { sub(/^inline /, ""); print }
    ' "$header" >> "$from_headers"
  done
  awk -v from="$from_headers" '
    /^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; code = 0; n = 0; next }
    inside && /^[ \t]*\/\/ END SOLUTION/ {
      inside = 0
      if (!code) while ((getline line < from) > 0) print line
      else for (i = 1; i <= n; i++) print kept[i]
      next
    }
    inside && /^[ \t]*\/\/ STUB:/ { next }
    inside { code = 1; kept[++n] = $0; next }
    { print }
  ' "$file"
  rm -f "$from_headers"
}

# A program that computes nothing: FILE (a starter) with its main renamed and a
# main that prints GOLDEN's text. golden_printer FILE GOLDEN > OUT.
golden_printer() {
  sed 's/^int main(/[[maybe_unused]] static int unused_main(/' "$1"
  echo '#include <cstdio>'
  echo 'int main() {'
  printf '    std::fputs(R"GOLDEN('
  cat "$2"
  echo ')GOLDEN", stdout);'
  echo '    return 0;'
  echo '}'
}

# The code every student of exercise $1 is given, and its answer, written into
# folder $2, as similarity.cpp's manifest lines ("id TAB role TAB name TAB path"):
# the starter and the headers with this exercise's regions cut are base code,
# which never counts as shared; the exercise solved is the reference.
similarity_base() {  # similarity_base ID DIR
  local id=$1 dir=$2 file header
  file=$(exercise_file "$id")
  mkdir -p "$dir" || return 2
  cut_solutions "$file" | flat_includes > "$dir/starter.cpp" || return 2
  printf '%s\tbase\tstarter\t%s\n' "$id" "$dir/starter.cpp"
  for header in $(needed_headers "$file"); do
    cut_solutions "$header" "$id" | flat_includes > "$dir/$(basename "$header")" || return 2
    printf '%s\tbase\t%s\t%s\n' "$id" "$(basename "$header")" "$dir/$(basename "$header")"
  done
  solved_exercise "$id" "$file" > "$dir/reference.cpp" || return 2
  printf '%s\treference\treference\t%s\n' "$id" "$dir/reference.cpp"
}
