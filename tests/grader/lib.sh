# tests/grader/lib.sh: what the grader's scripts share, sourced from the repository root. An exercise
# is a file chapter*/exercises/*.cpp with a line "// Exercise: ID"; its tests are tests/grader/ID.cpp.

random_seed() { echo $(( (RANDOM << 15 | RANDOM) % 1000000000 )); }

hash_of() { { sha256sum "$@" 2> /dev/null || shasum -a 256 "$@"; } | cut -c1-64; }  # FILE, or - for stdin
# The grader's sources, as one hash: a grading kept under it is redone when any of them changes. The copy
# detector (similarity*) reads the graded rows and never makes them: a change of it regrades nothing.
grader_version() {
  printf '%s\n' tests/grader/*.sh tests/grader/*.hpp tests/grader/*.cpp common/*.hpp chapter*/*.hpp \
    chapter*/exercises/*.cpp | grep -v '^tests/grader/similarity' | tr '\n' '\0' | xargs -0 cat | hash_of -
}

# Every exercise, in id order: "ID<TAB>FILE" lines (one awk for all files: a grading asks often).
exercise_table() {
  set -- chapter*/exercises/*.cpp
  [ -f "$1" ] || return 0
  awk 'FNR == 1 { found = 0 }
    !found && FNR <= 30 && /^\/\/ Exercise:/ {
      id = $0; sub(/^\/\/ Exercise: */, "", id); sub(/ .*/, "", id)
      found = 1; if (id != "") printf "%s\t%s\n", id, FILENAME }' "$@" | sort -t. -k1,1 -k2,2n
}
exercise_ids() { exercise_table | cut -f1 | paste -sd ' ' -; }
# The file of exercise $1 ("3" is chapter 20's exercise 3), or nothing.
exercise_file() {
  local id=$1
  case "$id" in *[!0-9]* | '') ;; *) id=20.$id ;; esac
  exercise_table | awk -F'\t' -v id="$id" '$1 == id { print $2 }'
}
exercise_id_of() { exercise_table | awk -F'\t' -v f="$1" '$2 == f { print $1 }'; }

# Exercise $1's tests and points, "name<TAB>points" in order, read from its tests file's calls
# (joined into one line first: the formatter may break a call after its parenthesis).
exercise_points() {
  [ -f "tests/grader/$1.cpp" ] || return 2
  tr '\n' ' ' < "tests/grader/$1.cpp" |
    grep -oE 'grader::((compare|property)\( *"[^"]*", *[0-9]+|printed_output\( *[0-9]+)' |
    sed -E -e 's/.*(compare|property)\( *"([^"]*)", *([0-9]+)/\2\t\3/' \
      -e 's/.*printed_output\( *([0-9]+)/printed_output\t\1/'
}

# The exercises whose answers FILE's program uses (its "// Builds on: ID ..." line).
builds_on() { sed -n '1,30s|^// Builds on: *||p' "$1" | head -n 1; }

# cut_solutions FILE [GRADING [FOLDER]]: FILE with each solution region cut to a "// TODO:"
# line and its STUB lines (the README's "The exercise file"); grading GRADING, a region
# "BEGIN SOLUTION exercise OTHER:" keeps its code; a LEFT OUT region goes in FOLDER's handout.
cut_solutions() {
  awk -v file="$1" -v grading="${2:-}" -v folder="${3:-${2:-}}" '
    function bad(what, line) { printf "%s:%d: %s\n", file, line, what > "/dev/stderr"; failed = 1; exit 2 }
    /^[ \t]*\/\/ BEGIN LEFT OUT exercise / {
      if (left) bad("BEGIN LEFT OUT inside another", NR)
      ids = $0; sub(/^[ \t]*\/\/ BEGIN LEFT OUT exercise /, "", ids); sub(/:.*/, "", ids)
      left = NR; dropping = folder != "" && index(" " ids " ", " " folder " ") > 0; next
    }
    /^[ \t]*\/\/ END LEFT OUT/ { if (!left) bad("END LEFT OUT without a BEGIN", NR); left = 0; dropping = 0; next }
    dropping { next }
    /^[ \t]*\/\/ BEGIN SOLUTION/ {
      if (inside || kept) bad("BEGIN SOLUTION inside another region", NR)
      start = NR; todo = $0; sub(/^[ \t]*\/\/ BEGIN SOLUTION[: ]*/, "", todo)
      if (grading != "" && todo ~ /^exercise [^ :]+:/) {
        owner = todo; sub(/^exercise /, "", owner); sub(/:.*/, "", owner)
        if (owner != grading) { kept = 1; next }
      }
      inside = 1; indent = $0; sub(/\/\/.*/, "", indent); gsub(/^[ \t]+|[ \t\r]+$/, "", todo)
      print indent "// TODO: " (todo == "" ? "write this part (the statement at the top of the file says what)" : todo)
      next
    }
    /^[ \t]*\/\/ END SOLUTION/ {
      if (!inside && !kept) bad("END SOLUTION without a BEGIN", NR)
      inside = kept = 0
      next
    }
    /^[ \t]*\/\/ STUB:/ && (inside || kept) {
      if (inside) { lead = $0; sub(/\/\/.*/, "", lead); sub(/^[ \t]*\/\/ STUB: ?/, ""); print lead $0 }
      next
    }
    inside { next }
    { print }
    END {
      if (!failed && (inside || kept)) bad("BEGIN SOLUTION is never ended", start)
      if (!failed && left) bad("BEGIN LEFT OUT is never ended", left)
    }' "$1"
}

# A handout keeps everything in one folder: "../x.hpp" becomes "x.hpp".
flat_includes() { sed 's|^\([ \t]*#[ \t]*include[ \t]*"\)\(\.\./\)*|\1|'; }

# The headers FILE includes with quotes (beside it, in its chapter folder, in common/), and theirs.
needed_headers() {
  local queue=("$1") seen=" " file name dir found candidate near
  while [ "${#queue[@]}" -gt 0 ]; do
    file=${queue[0]}
    queue=("${queue[@]:1}")
    dir=$(dirname "$file")
    for name in $(sed -n 's|^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*|\1|p' "$file"); do
      near=$dir/$name found=
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

# solved_exercise ID FILE: the exercise as a student who solved it hands it in. A region with
# STUB lines only takes the code a header marks "BEGIN SOLUTION exercise ID:" (15.3's
# backward, the tiny model's layers), inline dropped: the handout's header only declares it.
solved_exercise() {
  local id=$1 file=$2 header from_headers
  from_headers=$(mktemp) || return 2
  for header in $(needed_headers "$file"); do
    awk -v id="$id" '
      /^[ \t]*\/\/ BEGIN SOLUTION exercise / {
        s = $0; sub(/^[ \t]*\/\/ BEGIN SOLUTION exercise /, "", s); sub(/:.*/, "", s); inside = (s == id); next
      }
      inside && /^[ \t]*\/\/ END SOLUTION/ { inside = 0; next }
      inside && !/^[ \t]*\/\/ STUB:/ { sub(/^inline /, ""); print }
    ' "$header" >> "$from_headers"
  done
  awk -v from="$from_headers" '
    /^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; n = 0; next }
    inside && /^[ \t]*\/\/ END SOLUTION/ {
      inside = 0
      if (n == 0) while ((getline line < from) > 0) print line
      for (i = 1; i <= n; i++) print kept[i]
      next
    }
    inside && /^[ \t]*\/\/ STUB:/ { next }
    inside { kept[++n] = $0; next }
    { print }
  ' "$file"
  rm -f "$from_headers"
}

# similarity_base ID DIR: exercise ID's handout (base code) and answer, in DIR, as manifest lines.
similarity_base() {
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

# handout_root PATH DIR: the folder of make handout's output (PATH, or PATH's zip unpacked into DIR)
# that holds the exercise folders, or nothing.
handout_root() {
  local path=$1 dir
  if [ -f "$path" ]; then
    mkdir -p "$2" && unzip -qq -o "$path" -d "$2" > /dev/null 2>&1 || return 1
    path=$2
  fi
  for dir in "$path" "$path"/*/; do
    ls "${dir%/}"/*/STATEMENT.md > /dev/null 2>&1 && { echo "${dir%/}"; return 0; }
  done
  return 1
}
