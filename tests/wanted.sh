# Sourced by tests/run_tests.sh and tests/run_lessons.sh. EXERCISES (make test
# or make run EXERCISES=...): the chapters whose exercises make builds, "all"
# (the default), "none", or a list of chapter folders.
exercises=${EXERCISES:-all}
wanted() {  # wanted PATH: is PATH checked and run? Only an exercise of a chapter left out is not.
  case "$1" in
    *chapter*/exercises/*)
      local chapter=${1%%/exercises/*}
      chapter=${chapter##*/}
      [ "$exercises" = all ] || [[ " $exercises " == *" $chapter "* ]] ;;
    *) true ;;
  esac
}
