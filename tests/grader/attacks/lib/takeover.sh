# tests/grader/attacks/lib/takeover.sh: sourced by the takeover and gradescope
# generators. takeover ID FILE OUT [AUTOGRADER] < CODE: the starter, then the
# attack toolkit (snippet.inc), then CODE (a static constructor, usually).
takeover() {
  local id=$1 file=$2 out=$3/$(basename "$2") autograder=${4:-/autograder}
  {
    cat "$STARTER"
    echo
    echo "#define ATTACK_ID \"$id\""
    echo "#define ATTACK_ROOT \"$ROOT\""
    echo "#define ATTACK_EXERCISE \"$file\""
    echo "#define ATTACK_AUTOGRADER \"$autograder\""
    cat "$ROOT/tests/grader/attacks/lib/snippet.inc"
    cat
  } > "$out"
}
