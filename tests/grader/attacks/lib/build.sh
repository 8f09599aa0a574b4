# tests/grader/attacks/lib/build.sh: how an attack file or a solution of
# tests/grader/solutions/ becomes a submission. Sourced after lib.sh.
#
# A file is either
# - C++ function bodies (*.cpp): header comments, then sections applied to the
#   exercise's starter:
#     //@ helpers      code put before the first function replaced below
#     //@ body NAME    the body of the starter's function NAME, to its closing
#                      brace (the starter's signature stays)
#     //@ drop NAME    the starter's function NAME removed
#   and a header "// Replace-include: OLD NEW" swaps one #include "OLD" line;
# - a sed script (*.sed, "# Header:" lines) applied to the solved exercise;
# - a generator (*.sh): bash SCRIPT ID EXERCISE_FILE OUT_DIR writes OUT_DIR/<the
#   exercise's file name> from $STARTER or $SOLVED ($ROOT is the repository);
#   status 3 means "pending" (stdout says why). An attack's "# Exercise:" line
#   names its exercises, or says all.

# submission FILE ID DIR: FILE made into DIR's submission (the exercise's file name, or the
# name in DIR/.name) from $STARTER or $SOLVED; its path printed, or why not (status 3: pending).
submission() {
  local out status=0 why n=0 line
  out=$3/$(basename "$(exercise_file "$2")")
  case "$1" in
  *.sh) why=$(bash "$1" "$2" "$(exercise_file "$2")" "$3" 2>&1) || status=$? ;;
  *.sed) why=$(sed -f "$1" "$SOLVED" 2>&1 > "$out") || status=1
    cmp -s "$SOLVED" "$out" && why="it changes nothing in the solved exercise" status=1
    # and each command alone changes something: one that no longer matches the reference (after
    # a reformat, say) would leave another solution graded than the one the file describes.
    while IFS= read -r line; do
      n=$((n + 1))
      case "$line" in '' | '#'*) continue ;; esac
      printf '%s\n' "$line" > "$3.line.sed"
      sed -f "$3.line.sed" "$SOLVED" 2> /dev/null | cmp -s - "$SOLVED" &&
        why="line $n of $1 changes nothing in the solved exercise" status=1
    done < "$1" ;;
  *) why=$(apply_bodies "$1" "$STARTER" "$out" 2>&1) || status=$? ;;
  esac
  [ "$status" -eq 0 ] || { echo "$why"; return "$status"; }
  [ -f "$3/.name" ] && out=$3/$(cat "$3/.name")
  echo "$out"
}

# header_of FILE FIELD: the value of a "// Field:" or "# Field:" line.
header_of() { sed -n "s|^[/#]* *$2: *||p" "$1" | head -n 1; }

# apply_bodies FILE STARTER OUT: writes OUT, or says why not (status 3: pending).
apply_bodies() {
  local name
  for name in $(sed -n -E 's#^//@ (body|drop) ##p' "$1"); do
    if ! awk -v n="$name" '/^[A-Za-z_]/ && !/;[ \t]*$/ && match($0, "(^|[^A-Za-z0-9_])" n "\\(") { found = 1 }
                          END { exit !found }' "$2"; then
      echo "pending: the starter does not define $name"
      return 3
    fi
  done
  awk -v swap="$(header_of "$1" Replace-include)" '
    FNR == 1 { file++ }
    file == 1 && /^\/\/@ / {
      what[$3] = $2
      if ($2 != "helpers") order[++names] = $3
      section = $2 == "helpers" ? "@helpers" : $3
      next
    }
    file == 1 { if (section != "") text[section] = text[section] $0 "\n"; next }
    skipping { if ($0 ~ /^}/) skipping = 0; next }
    signature {
      if (!dropping) print
      if ($0 ~ /\{[ \t]*$/) { signature = 0; if (!dropping) printf "%s", text[current]; skipping = 1 }
      next
    }
    swap != "" && /^#include "/ {
      split(swap, s, " ")
      if (index($0, "\"" s[1] "\"")) { print "#include \"" s[2] "\""; next }
    }
    /^[A-Za-z_]/ && !/;[ \t]*$/ {
      for (k = 1; k <= names; k++) {
        nm = order[k]
        if (!match($0, "(^|[^A-Za-z0-9_])" nm "\\(")) continue
        if (!helped) { printf "%s", text["@helpers"]; helped = 1 }
        current = nm; dropping = what[nm] == "drop"
        if (!dropping) print
        if ($0 ~ /\{[ \t]*$/) { if (!dropping) printf "%s", text[nm]; skipping = 1 } else signature = 1
        next
      }
    }
    { print }
  ' "$1" "$2" > "$3"
}
