# tests/grader/attacks/lib/build.sh: how tests/grader/attacks.sh turns an attack
# file into a submission. Sourced from the repository root after lib.sh.
#
# An attack is either
# - a C++ file of function bodies (lookup/, wrong/, right/, some of include/):
#   comment headers, then sections that say what to do to the exercise's starter:
#     //@ helpers              code put before the first function written below
#     //@ body NAME            the body of the starter's function NAME, to its
#                              closing brace (the starter's signature stays)
#     //@ body NAME (today: OLD)  the same; OLD is used with --old-names
#     //@ drop NAME            the starter's function NAME removed
#     //@ use-header NAME (today: OLD)  NAME is the header's own: removed from the
#                              starter; with --old-names, OLD's body is the section
#   and a header "// Replace-include: OLD NEW" swaps one #include "OLD" line.
# - or a sed script (*.sed, "# Header:" lines) applied to the solved exercise
#   ($SOLVED, lib.sh's solved_exercise), as tests/grader/wrong/*.sed are;
# - or a generator script (*.sh): bash SCRIPT ID EXERCISE_FILE OUT_DIR writes the
#   submission OUT_DIR/<the exercise's file name> (and any file beside it) from
#   $STARTER or $SOLVED (with $ROOT the repository); status 3 means "pending"
#   (not yet possible in this tree; stdout says why), 4 "does not apply to this
#   exercise".

# header_of FILE FIELD: the value of a "// Field:" or "# Field:" line.
header_of() { sed -n "s|^[/#]* *$2: *||p" "$1" | head -n 1; }

# defines NAME FILE: FILE has a function definition of NAME starting at column 0.
defines() {
  awk -v n="$1" '/^[A-Za-z_]/ && !/;[ \t]*$/ && match($0, "(^|[^A-Za-z0-9_])" n "\\(") { found = 1 } END { exit !found }' "$2"
}

# apply_bodies ATTACK STARTER OUT: writes OUT, or says why not (status 3: pending).
apply_bodies() {
  local attack=$1 starter=$2 out=$3 spec name old actual mode map=
  while read -r spec name old; do
    mode=${spec#x}
    old=${old#(today: }
    old=${old%)}
    actual=
    if defines "$name" "$starter"; then actual=$name
    elif [ -n "$old" ] && [ "${ATTACKS_OLD_NAMES:-0}" = 1 ] && defines "$old" "$starter"; then actual=$old
    fi
    if [ -z "$actual" ]; then
      echo "pending: the starter does not define $name yet${old:+ (today it is $old: --old-names grades that)}"
      return 3
    fi
    [ "$mode" = use-header ] && { [ "$actual" = "$name" ] && mode=drop || mode=body; }
    map="$map$name=$actual=$mode "
  done < <(sed -n -E 's#^//@ (body|drop|use-header) #x\1 #p' "$attack")
  local swap
  swap=$(header_of "$attack" Replace-include)
  awk -v map="$map" -v swap="$swap" '
    FNR == 1 { file++ }
    file == 1 && /^\/\/@ / {
      split($0, w, " "); mode = w[2]; name = w[3]
      if (mode == "body" || mode == "drop" || mode == "use-header") {
        n = split(map, m, " ")
        for (i = 1; i <= n; i++) { split(m[i], kv, "="); if (kv[1] == w[3]) { name = kv[2]; mode = kv[3] } }
      }
      what[name] = mode; order[++names] = name; section = (mode == "helpers") ? "@helpers" : name
      next
    }
    file == 1 { if (section != "") text[section] = text[section] $0 "\n"; next }
    # the starter
    skipping { if ($0 ~ /^}/) { skipping = 0; if (keep_close) print } ; next }
    signature { if (!dropping) print; if ($0 ~ /\{[ \t]*$/) { signature = 0; if (!dropping) printf "%s", text[current]; skipping = 1; keep_close = 0 } ; next }
    swap != "" && /^#include "/ {
      split(swap, s, " "); if (index($0, "\"" s[1] "\"")) { print "#include \"" s[2] "\""; next }
    }
    /^[A-Za-z_]/ && !/;[ \t]*$/ {
      for (k = 1; k <= names; k++) {
        nm = order[k]
        if (what[nm] != "body" && what[nm] != "drop") continue
        if (match($0, "(^|[^A-Za-z0-9_])" nm "\\(")) {
          if (!helped) { printf "%s", text["@helpers"]; helped = 1 }
          current = nm; dropping = (what[nm] == "drop"); used[nm] = 1
          if (!dropping) print
          if ($0 ~ /\{[ \t]*$/) { if (!dropping) printf "%s", text[nm]; skipping = 1; keep_close = 0 }
          else signature = 1
          next
        }
      }
    }
    { print }
  ' "$attack" "$starter" > "$out"
}
