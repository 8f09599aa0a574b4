#!/usr/bin/env bash
# Grades one exercise file (tests/grader/README.md, "How a grading runs"):
#
#   make check-exercise EX=20.3 SRC=path/to/student.cpp
#   bash tests/grader/grade.sh 20.3 path/to/student.cpp
#   bash tests/grader/grade.sh --folder DIR      (make exercises DIR=...: each exercise's file in DIR)
#
# Exit 0 at full marks, 1 below, 2 on a usage mistake (one line). SEED replays a run; RESULTS=FILE,
# TIME_LIMIT, CXX, CXXFLAGS, GRADER_CACHE, GRADER_KEEP and GRADER_SANDBOX: the README's "Running it".
set -u
ex=${1:-}
src=${2:-}
[ -n "$src" ] && [ "${src#/}" = "$src" ] && src="$PWD/$src"
results=${RESULTS:-}
[ -n "$results" ] && [ "${results#/}" = "$results" ] && results="$PWD/$results"
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
. tests/grader/lib.sh

usage_error() { echo "check-exercise: $1" >&2; exit 2; }
if [ "$ex" = --folder ]; then
  [ -n "$src" ] || usage_error "DIR is missing: which folder holds your exercise files?"
  [ -d "$src" ] || usage_error "DIR '$2' is not a folder"
  # Each file's last grade is kept in DIR/.grades/, under the hash of its bytes, the grader's sources
  # and the settings: a file graded before is not graded again. An untouched starter is not graded.
  kept=$src/.grades version=$(grader_version)
  mkdir -p "$kept" 2> /dev/null || kept=
  found=0 finished=0 untouched=0 next= broken=0
  while IFS=$'\t' read -r id file; do
    name=$(basename "$file")
    mine=$(find "$src" -name "$name" -type f ! -path "$src/.grades/*" 2> /dev/null | sort | head -n 1)
    [ -n "$mine" ] || { printf '  %-8s %-32s %s\n' "$id" "$name" "not in this folder"; continue; }
    found=$((found + 1))
    [ -n "$next" ] || next="$id ${mine#"$root"/}"
    if cut_solutions "$file" | flat_includes | diff -q -w -B - "$mine" > /dev/null 2>&1; then
      untouched=$((untouched + 1))
      printf '  %-8s %-32s %-14s %s\n' "$id" "$name" "" "not started"
      continue
    fi
    key=$id.$(printf '%s\n' "$(hash_of "$mine")" "$version" "${SEED:-}" "${CXX:-}" "${CXXFLAGS:-}" "${TIME_LIMIT:-}" |
      hash_of -)
    if [ -n "$kept" ] && [ -f "$kept/$key" ]; then
      status=$(head -n 1 "$kept/$key") log=$(tail -n +2 "$kept/$key")
    else
      log=$(bash tests/grader/grade.sh "$id" "$mine" 2>&1)
      status=$?
      # Kept unless the grading could not finish or a test ran out of time (the machine's load may have).
      if [ -n "$kept" ] && [ "$status" -le 1 ] &&
        ! printf '%s\n' "$log" | grep -q "still running after\|seconds of CPU time"; then
        rm -f "$kept/$id".*
        printf '%s\n%s\n' "$status" "$log" > "$kept/$key.tmp" && mv "$kept/$key.tmp" "$kept/$key"
      fi
    fi
    total=$(printf '%s\n' "$log" | grep -E '^[0-9]+/[0-9]+ points$' | tail -n 1)
    what="to do"
    printf '%s\n' "$log" | grep -q "^It did not compile:\|^Your file did not compile" && what="did not compile"
    printf '%s\n' "$log" | grep -q "^The file is empty" && what="empty"
    printf '%s\n' "$log" | grep -q "not one of the handout's files" && what="includes a file the handout does not have"
    case $status in
    0) finished=$((finished + 1)); printf '  %-8s %-32s %-14s %s\n' "$id" "$name" "$total" "done" ;;
    1) printf '  %-8s %-32s %-14s %s\n' "$id" "$name" "$total" "$what" ;;
    *) printf '  %-8s %-32s %s\n' "$id" "$name" "cannot grade: $(printf '%s\n' "$log" | head -n 1)"; broken=1 ;;
    esac
    [ "$status" -ne 0 ] || [ "${next%% *}" != "$id" ] || next=
  done < <(exercise_table)
  printf '\n%s of %s exercises done, %s not started\n' "$finished" "$found" "$untouched"
  [ "$found" -gt 0 ] || { echo "No exercise files in '$2' (make handout writes them)."; exit 1; }
  [ -n "$next" ] || { echo "All done."; exit 0; }
  echo "Next: exercise ${next%% *}, ${next#* }"
  echo "  make check-exercise EX=${next%% *} SRC=${next#* }   shows each test, its points and a hint"
  exit "$broken"
fi
[ -n "$ex" ] || usage_error "EX is missing: which exercise? (the exercises: $(exercise_ids))"
reference=$(exercise_file "$ex")
[ -n "$reference" ] || usage_error "there is no exercise '$ex'; the exercises: $(exercise_ids)"
id=$(exercise_id_of "$reference")
tests_file=tests/grader/$id.cpp
[ -f "$tests_file" ] || usage_error "exercise $id has no tests file $tests_file (a grader bug)"
[ -n "${2:-}" ] || usage_error "SRC is missing: which file should be graded?"
[ -e "$src" ] || usage_error "cannot read SRC '$2': no such file"
[ -d "$src" ] && usage_error "SRC '$2' is a folder; give one .cpp file (make exercises DIR=... grades a folder)"
[ -f "$src" ] && [ -r "$src" ] || usage_error "cannot read SRC '$2': permission denied or not a file"
seed=${SEED:-$(random_seed)} time_limit=${TIME_LIMIT:-10}
case "$seed" in '' | *[!0-9]*) usage_error "SEED must be a whole number, got '$seed'" ;; esac
case "$time_limit" in '' | *[!0-9]* | 0) usage_error "TIME_LIMIT must be a whole number of seconds, got '$time_limit'" ;; esac
# The limits the statement states: 1 MB of stdout and 64 MB of stderr a test, 2 GB of memory.
limit=1000000 error_limit=64000000 memory=2097152
if [ -n "$results" ]; then
  [ -d "$(dirname "$results")" ] || usage_error "RESULTS '$results': no such folder"
  [ -d "$results" ] && usage_error "RESULTS '$results' is a folder; give a file name"
fi

# $work is the grader's (mode 700); $box the student's, in /tmp under a uid of its own (TMPDIR may be closed to it).
work=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX") || usage_error "cannot make a temporary folder"
chmod 700 "$work"
mode=$(bash tests/grader/sandbox.sh probe)
uid= boxes=${TMPDIR:-/tmp}
case "$mode" in bwrap-uid | uid) boxes=/tmp ;; esac
box=$(mktemp -d "$boxes/grade-box.XXXXXX") || { rmdir "$work"; usage_error "cannot make a temporary folder"; }
cleanup() {
  [ -n "$uid" ] && bash "$root/tests/grader/sandbox.sh" kill "$mode" "$uid"
  rm -rf "$work" "$box"
  [ -n "$uid" ] && rmdir "/tmp/grader-uid.$uid" 2> /dev/null
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A uid no other run uses (a lock folder claims it): killing all its processes kills only this run's.
case "$mode" in bwrap-uid | uid)
  uid=$(( 200000 + $$ % 100000 ))
  while ! mkdir "/tmp/grader-uid.$uid" 2> /dev/null; do uid=$((uid + 1)); done ;;
esac

# The student's file in src/file/, the headers in src/: "x.hpp" and "../x.hpp" both find the one copy.
mkdir -p "$box/src/file" "$box/run" "$box/tmp"
read -r -a cxx <<< "${CXX:-g++}"  # a word or more: "clang++ -stdlib=libc++"
read -r -a given <<< "${CXXFLAGS:--std=c++17 -Og -Wall -Wextra -Wpedantic -ffp-contract=off}"
flags=()  # warnings shown, never fatal; the box's headers only
for flag in "${given[@]}"; do
  case "$flag" in -Werror | -Werror=* | -I*) ;; *) flags+=("$flag") ;; esac
done
for header in $(needed_headers "$reference") common/matrix.hpp $(needed_headers common/matrix.hpp); do
  cut_solutions "$header" "$id" > "$box/src/$(basename "$header")" || exit 2
done
cp tests/grader/grader.hpp "$tests_file" "$box/src/"
cp "$src" "$box/src/file/submission.cpp"
for data in $(sed -n 's|^// Files: *||p' "$tests_file"); do
  mkdir -p "$box/run/$(dirname "$data")" && cp "$data" "$box/run/$data"
done
if [ -n "$uid" ]; then chown -R "$uid:$uid" "$box" && chmod 700 "$box" || usage_error "cannot give the box to uid $uid"; fi

cache=${GRADER_CACHE:-$work}
mkdir -p "$cache" || usage_error "cannot use GRADER_CACHE '$cache'"
[ -n "$uid" ] && chmod go-rwx "$cache"  # the student's uid must not run the checker: its --lesson is the reference's
tool=$cache/gradetool
checker=$cache/checker-$id
dir=$(dirname "$reference")
[ -x "$tool" ] || { "${cxx[@]}" -std=c++17 -O1 tests/grader/gradetool.cpp -o "$tool.tmp$$" > "$work/tool.log" 2>&1 &&
  mv "$tool.tmp$$" "$tool"; } &
[ -x "$checker" ] || { "${cxx[@]}" -std=c++17 -O1 -ffp-contract=off -DGRADER_CHECKER -DREFERENCE_SOURCE="\"$root/$reference\"" \
  -Itests/grader -I"$dir" -I"$(dirname "$dir")" -Icommon "$tests_file" -o "$checker.tmp$$" -pthread > "$work/checker.log" 2>&1 &&
  mv "$checker.tmp$$" "$checker"; } &
# The build, in the sandbox: 2 minutes of CPU, 4 GB, 256 MB a file.
bash tests/grader/sandbox.sh run "$mode" "${uid:-0}" "$box" "$box/src/file" 120 4194304 262144 -- "${cxx[@]}" ${flags[@]+"${flags[@]}"} -MD -MF "$box/deps" -I"$box/src" \
  -DSTUDENT_SOURCE='"file/submission.cpp"' "$box/src/$id.cpp" -o "$box/driver" -pthread > "$work/compile.log" 2>&1
compiled=$?
wait
[ -x "$tool" ] || { echo "check-exercise: cannot build tests/grader/gradetool.cpp:" >&2; head -n 20 "$work/tool.log" >&2; exit 2; }
[ -x "$checker" ] || { echo "check-exercise: the reference $reference does not build with $tests_file (a grader bug):" >&2; head -n 20 "$work/checker.log" >&2; exit 2; }
[ "$compiled" -eq 0 ] && [ ! -x "$box/driver" ] && compiled=1

# Every file the compile read must be the box's, or one of the compiler's own headers.
outside=
if [ "$compiled" -eq 0 ]; then
  system_dirs=()
  while IFS= read -r line; do system_dirs+=("$line"); done < <(
    echo | "${cxx[@]}" ${flags[@]+"${flags[@]}"} -xc++ -E -v - 2>&1 | sed -n '/search starts here:/,/End of search list/p' |
      grep '^ ' | sed -e 's/^ *//' -e 's/ (framework directory)$//')
  outside=$(cd "$box" && "$tool" deps "$box" "$box/deps" ${system_dirs[@]+"${system_dirs[@]}"}) || outside=${outside:-"(unreadable)"}
fi

# A whole-file failure (empty, not compiled, a file that is not the handout's): a row per test
# with its message and no hint (no test ran), so that the report says it once.
fail_rows() {
  "$checker" --fail "$rows.all" "$1" && awk -F'\t' -v OFS='\t' '{ $6 = "" } 1' "$rows.all" > "$rows" || exit 2
}
rows=$work/rows
bom=$(printf '\357\273\277')  # a "UTF-8" editor's empty file is these three bytes
error= missing=  # the compiler's first error; the file it names as missing, if that is the error
if [ "$compiled" -ne 0 ]; then
  error=$(grep -m 1 -E '(fatal )?error:' "$work/compile.log")
  missing=$(printf '%s\n' "$error" |
    sed -n -E "s/.*fatal error: '?([^':]*)'?(: No such file or directory| file not found).*/\1/p")
fi
if [ -z "$(LC_ALL=C tr -d "[:space:]$bom" < "$src" | head -c 1)" ]; then
  : > "$work/compile.log"
  fail_rows "the file is empty: write your answer in it (the handout's starter is where to begin) and grade it again"
elif [ -n "$missing" ] && [ -f "$box/src/${missing##*/}" ] && [ "${missing##*/}" != grader.hpp ] &&
  [ "${missing##*/}" != "$id.cpp" ]; then  # a handout header, by a path
  : > "$work/compile.log"
  fail_rows "your file includes \"$missing\", a path in the repository, which is not one of the handout's \
files: include the handout's headers by name, #include \"${missing##*/}\""
elif [ -n "$missing" ]; then
  fail_rows "your file did not compile: it includes \"$missing\", which the handout does not have; use the \
standard library and the handout's headers only"
elif [ "$compiled" -ne 0 ]; then
  case "$error" in
  *file/submission.cpp:[0-9]*)
    line=${error#*submission.cpp:}
    fail_rows "your file did not compile: fix the first error above (line ${line%%:*} of your file), build it \
with the statement's command, and grade it again" ;;
  *) fail_rows "your file did not compile: the first error above is where the grader calls your functions; \
give each the name and signature the statement states" ;;
  esac
elif [ -n "$outside" ]; then
  fail_rows "your file includes $outside, which is not one of the handout's files; include only those, beside your file"
else
  # The seed and the rows' path go in the environment: the student's uid can read every command line in /proc.
  cp tests/grader/sandbox.sh "$work/sandbox.sh"
  GRADER_SEED=$seed GRADER_ROWS=$rows "$checker" --grade "$time_limit" "$limit" "$error_limit" \
    --after "bash '$work/sandbox.sh' kill $mode ${uid:-0}" -- \
    bash "$work/sandbox.sh" run "$mode" "${uid:-0}" "$box" "$box/run" "$((time_limit + 1))" "$memory" \
    "$(( (limit + 1023) / 1024 * 10 ))" -- "$box/driver" > "$work/checker.out" 2> "$work/checker.err"
  status=$?
  if [ "$status" -ne 0 ]; then
    line=$(grep -m 1 . "$work/checker.err")
    echo "${line:-check-exercise: the checker stopped with status $status (a grader bug)}" >&2
    exit 2
  fi
fi
[ -n "$uid" ] && bash tests/grader/sandbox.sh kill "$mode" "$uid"  # nothing the student started outlives the run

{
  echo "Exercise $id ($reference), graded: ${2}"
  echo "Seed $seed (SEED=$seed replays this run); sandbox $mode"
  if [ -s "$work/compile.log" ]; then
    echo
    if [ "$compiled" -ne 0 ]; then echo "It did not compile:"; else echo "The compiler's warnings:"; fi
    sed -e "s|$box/src/file/submission.cpp|$2|g" -e "s|file/submission.cpp|$2|g" -e "s|$box/src/|(handout) |g" \
      "$work/compile.log" | head -n 30 | sed 's/^/    /'
  fi
} > "$work/header"
[ -n "${GRADER_KEEP:-}" ] && cp "$rows" "$GRADER_KEEP/" 2> /dev/null
"$tool" report "$rows" "$work/header" ${results:+"$results"}
