#!/usr/bin/env bash
# make compile-times: how long each program takes to compile, one at a time, at
# the project's flags. A lesson or an exercise should take at most LIMIT
# seconds; the tools (tiny_train, lab5_runs) and the tests/ programs are listed
# but may take longer. Times are CPU seconds (user + sys) of the compiler, the
# best of REPEAT runs, so that other work on the machine disturbs them little.
# A measurement, not a test: make test does not run it. Exits 1 if a lesson is over.
#
#   bash tests/bench/compile_times.sh [REPEAT] [FILE.cpp ...]
#   CXX=clang++ OPT=-O0 LIMIT=2 bash tests/bench/compile_times.sh 3
# OPT is the lessons' level and TIMED_OPT that of the TIMED programs; each
# defaults to the Makefile's own (make compile-times passes all three).
set -u
cd "$(dirname "$0")/../.."
repeat=${1:-1}
shift || true
makefile_value() { sed -n "s/^$1 *[?:]*= *//p" Makefile; }  # makefile_value NAME: NAME's value in the Makefile
CXX=${CXX:-g++}
OPT=${OPT:-$(makefile_value OPT)}
TIMED_OPT=${TIMED_OPT:-$(makefile_value TIMED_OPT)}
TIMED=${TIMED:-$(makefile_value TIMED)}
LIMIT=${LIMIT:-2}
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(chapter*/*.cpp chapter*/*/*.cpp tests/unit/*.cpp)
lessons=$(bash tests/lessons.sh | cut -f1 | tr '\n' ' ')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CPU seconds of one compile and link, as "user+sys" from bash's time.
cpu_seconds() {
  local TIMEFORMAT='%U %S' times opt=$OPT flags
  case " $TIMED " in *" ${1%.cpp} "*) opt=$TIMED_OPT ;; esac
  read -r -a flags <<< "-std=c++17 $opt -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -Icommon"
  times=$( { time "$CXX" "${flags[@]}" -I"$(dirname "$1")" "$1" -o "$work/a.out" -pthread \
               2> "$work/errors" ; } 2>&1 ) || { cat "$work/errors" >&2; echo fail; return; }
  awk '{ printf "%.2f", $1 + $2 }' <<< "$times"
}

echo "CPU seconds to compile each program ($CXX $OPT, the timed programs $TIMED_OPT; best of $repeat; load: $(cut -d' ' -f1-3 /proc/loadavg))"
over=0 total=0
for src in "${files[@]}"; do
  best=
  for _ in $(seq "$repeat"); do
    t=$(cpu_seconds "$src")
    [ "$t" = fail ] && { best=fail; break; }
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
  done
  # A lesson or an exercise (what tests/lessons.sh lists) is held to the limit;
  # the tools (tiny_train, lab5_runs) and tests/ may take longer.
  case " $lessons " in
    *" ${src%.cpp} "*) if [ "$best" = fail ] || awk "BEGIN { exit !($best > $LIMIT) }"; then
         note="  OVER ${LIMIT} s"; over=$((over + 1))
       else note=""; fi ;;
    *) note="" ;;
  esac
  case " $TIMED " in *" ${src%.cpp} "*) note="$note  (at $TIMED_OPT)" ;; esac
  [ "$best" = fail ] || total=$(awk "BEGIN { print $total + $best }")
  printf '%6s  %s%s\n' "$best" "$src" "$note"
done
printf '%6.1f  total\n' "$total"
if [ "$over" -gt 0 ]; then echo "$over lesson(s) over ${LIMIT} s"; exit 1; fi
echo "every lesson within ${LIMIT} s"
