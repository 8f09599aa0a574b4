#!/usr/bin/env bash
# A teacher's Mac has GNU make 3.81 and bash 3.2, and neither can be installed
# here, so this check reads the files for what those versions lack:
# - the scripts a teacher or student runs (the grader, the handout, make
#   exercises, Gradescope's entry point, and what they source), for bash-4 words;
# - the Makefile and the files it includes, for make features newer than 3.81.
# Exit 0 when none is found; otherwise one line per use, naming file and line.
set -u
cd "$(dirname "$0")/../.." || exit 1
found=0
report() {  # report FILE PATTERN WHAT: every line of FILE matching the extended regex
  local file=$1 pattern=$2 what=$3 hit
  # Comment lines (a "#" first) say what is avoided; they are not code.
  hit=$(grep -nE -- "$pattern" "$file" | grep -vE '^[0-9]+:[[:space:]]*#' | head -n 5)
  [ -z "$hit" ] && return 0
  while IFS= read -r line; do echo "$file:${line%%:*}: $what: ${line#*:}"; done <<< "$hit"
  found=$((found + 1))
}

# Everything under tests/grader/ that runs in bash, and Gradescope's entry point.
scripts=$(ls tests/grader/*.sh tests/run_autograder 2> /dev/null)
for f in $scripts; do
  report "$f" '(^|[^[:alnum:]_])(mapfile|readarray|coproc)([^[:alnum:]_]|$)' "bash 4 (mapfile, readarray, coproc)"
  report "$f" '(declare|local|typeset)[[:space:]]+-[a-zA-Z]*[An]' "bash 4 (associative array or nameref)"
  report "$f" '\$\{[^}]*(,,|\^\^|,|\^)\}' "bash 4 (case conversion in \${...})"
  report "$f" '\$\{[^}]*@[QEPAaUuLK]\}' "bash 4.4 (\${x@op})"
  report "$f" '\|&' "bash 4 (|&)"
  report "$f" ';;?&' "bash 4 (;& or ;;& in case)"
  report "$f" 'wait[[:space:]]+-n' "bash 4.3 (wait -n)"
  report "$f" '\[\[[[:space:]]+-v[[:space:]]' "bash 4.2 ([[ -v ]])"
  report "$f" '\$\{[[:alnum:]_]+\[-[0-9]+\]\}' "bash 4.3 (negative array index)"
  report "$f" '(^|[^[:alnum:]_])EPOCHREALTIME|EPOCHSECONDS|BASH_ARGV0' "bash 5 variable"
done

# GNU make 3.81 (the Mac's): no private, undefine, !=, ::=, $(file ...),
# .ONESHELL, .RECIPEPREFIX, grouped targets (&:), $(let ...) or $(intcmp ...),
# in the Makefile or the files it includes.
for f in Makefile $(sed -n 's/^include //p' Makefile); do
  report "$f" '(^|[[:space:]:])private[[:space:]]' "make 3.82 (private)"
  report "$f" '^[[:space:]]*(override[[:space:]]+)?undefine[[:space:]]' "make 3.82 (undefine)"
  report "$f" '^[^#	]*[^!=:+?]!=' "make 4.0 (!=)"
  report "$f" '::=' "make 4.0 (::=)"
  report "$f" '\$\(file[[:space:]]' "make 4.0 (\$(file ...))"
  report "$f" '\.ONESHELL|\.RECIPEPREFIX' "make 3.82 (.ONESHELL, .RECIPEPREFIX)"
  report "$f" '^[^#	=]*&:' "make 4.3 (grouped targets &:)"
  report "$f" '\$\((let|intcmp)[[:space:]]' "make 4.4 (\$(let), \$(intcmp))"
done

if [ "$found" -eq 0 ]; then echo "the teacher's scripts run on bash 3.2 and the Makefile on GNU make 3.81"
else echo "$found kinds of use of what a Mac's bash 3.2 or make 3.81 lacks (above)"; exit 1; fi
