# The one place that says what EXERCISES selects (make test, make run: "all", the default, "none", or
# a list of chapter folders such as EXERCISES=chapter20). Sourced by tests/run_tests.sh, whose --list
# the Makefile reads, tests/run_lessons.sh and tests/checks/all_bad_input.sh. GRADER_CHECKS=no (make matrix,
# make sanitize) leaves out the grader's checks: the grader builds with its own flags, not the build's OPT.
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
    tests/checks/grader_*)  # the grader's checks; those that grade every exercise, only with all of them
      [ "${GRADER_CHECKS:-yes}" != no ] || return 1
      case "$1" in
        */grader_20.3.sh | */grader_class_handout.sh | */grader_reports.sh | */grader_similarity.sh | \
          */grader_old_handout.sh) [ "$exercises" = all ] ;;
      esac ;;
    *) true ;;
  esac
}
