# The one place that says what EXERCISES selects (make test, make run: "all", the default, "none", or
# a list of chapter folders such as EXERCISES=chapter20). Sourced by tests/run_tests.sh, whose --list
# the Makefile reads, tests/run_lessons.sh and tests/checks/all_bad_input.sh.
exercises=${EXERCISES:-all}
wanted() {  # wanted PATH: is PATH (a program's source, a golden, a check) built and run?
  case "$1" in
    *chapter*/exercises/*)  # an exercise, of a chapter EXERCISES names
      local chapter=${1%%/exercises/*}
      chapter=${chapter##*/}
      [ "$exercises" = all ] || [[ " $exercises " == *" $chapter "* ]] ;;
    tests/checks/*_ex[0-9]*)  # a check of one exercise, named FOLDER_PROGRAM.sh: with its exercise
      local name=${1#tests/checks/}
      wanted "${name%%_*}/exercises/${name#*_}" ;;
    tests/checks/grader_20.3.sh | tests/checks/grader_class_handout.sh | tests/checks/grader_reports.sh | \
      tests/checks/grader_similarity.sh | tests/checks/grader_old_handout.sh)  # they grade every exercise
      [ "$exercises" = all ] ;;
    *) true ;;
  esac
}
