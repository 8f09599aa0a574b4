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
handout=${HANDOUT:-}
[ -n "$handout" ] && [ "${handout#/}" = "$handout" ] && handout="$PWD/$handout"
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
case "$time_limit" in
  '' | *[!0-9]* | 0) usage_error "TIME_LIMIT must be a whole number of seconds, got '$time_limit'" ;;
esac
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
cache=${GRADER_CACHE:-$work}
mkdir -p "$cache" || usage_error "cannot use GRADER_CACHE '$cache'"
[ -n "$uid" ] && chmod go-rwx "$cache"  # the student's uid must not run the checker: its --lesson is the reference's
name=$(basename "$reference") hdir= stamp=
if [ -n "$handout" ]; then  # HANDOUT: its headers, today's checker where it fits them (README, "Grading a class")
  hroot=$(handout_root "$handout" "$work/handout") || usage_error "HANDOUT '$HANDOUT': not make handout's folder or zip"
  hdir=$hroot/$id
  [ -f "$hdir/$name" ] || usage_error "HANDOUT '$HANDOUT' has no $id/$name"
  stamp=$(head -n 1 "$hroot/VERSION" 2> /dev/null)
  stamp=${stamp:-"unknown: the handout has no VERSION file"} commit=${stamp%-dirty} tree= why=
  if ! [[ $commit =~ ^[0-9a-f]{40}$ ]]; then why="its VERSION names no commit"
  elif ! command -v git > /dev/null; then why="git is not installed here"
  elif ! git cat-file -e "$commit^{commit}" 2> /dev/null; then why="this checkout has no commit $commit"
  else  # the repository at that commit, unpacked once into the cache
    tree=$cache/v$commit
    [ -d "$tree" ] || { mkdir -p "$tree.tmp$$" && git archive "$commit" | tar -x -C "$tree.tmp$$" && { [ -d "$tree" ] ||
      mv "$tree.tmp$$" "$tree"; }; } || usage_error "cannot unpack commit $commit into '$cache'"
    rm -rf "$tree.tmp$$"
  fi
  [ "$stamp" = "$commit" ] || why="it was made from a checkout with uncommitted changes"
  elsewhere() {  # grades the file with the grader of the handout's commit, or says why it cannot (never a silent 0)
    local how="git worktree add /tmp/v${commit:0:12} $commit && make -C /tmp/v${commit:0:12}"
    how="$how check-exercise EX=$id SRC=$src"
    [[ $commit =~ ^[0-9a-f]{40}$ ]] || how="make check-exercise EX=$id SRC=$src in the checkout the handout came from"
    if [ -n "$why" ]; then
      [ -z "${GRADER_KEEP:-}" ] || echo "$1; $why" > "$GRADER_KEEP/needs-version"
      usage_error "cannot grade against the handout $stamp here: $1, and $why. Grade it there: $how"
    fi
    echo "Handout $stamp: graded by the grader of that commit ($1)"
    (cd "$(dirname "$src")" && HANDOUT= GRADER_CACHE=$tree/.grader-cache RESULTS=$results \
      bash "$tree/tests/grader/grade.sh" "$id" "$(basename "$src")")
    exit $?
  }
  # The handout's headers, another exercise's cut part filled in as today's or its commit's grading does.
  for header in "$hdir"/*.hpp; do
    base=$(basename "$header") filled=
    if ! grep -E '// TODO: exercise [^ :]+:' "$header" | grep -qv "// TODO: exercise $id:"; then
      cp "$header" "$box/src/$base"
      continue
    fi
    for candidate in $(find "$root/common" "$root"/chapter* ${tree:+"$tree/common" "$tree"/chapter*} -name "$base"); do
      cut_solutions "$candidate" "" "$id" | flat_includes | cmp -s - "$header" || continue
      cut_solutions "$candidate" "$id" > "$box/src/$base" && filled=1 && break
    done
    [ -n "$filled" ] || elsewhere "its $base is neither today's nor its commit's"
  done
  # Today's checker fits when the handout's starter builds with today's tests file, each call's types are
  # today's and the lesson prints today's output: graded once a handout, with GRADER_FIT set.
  fit=$cache/fit-$id-$(cat "$hdir"/* 2> /dev/null | cksum | tr ' ' -)
  if [ -z "${GRADER_FIT:-}" ] && [ ! -f "$fit" ]; then
    mkdir "$work/fit"
    expected=$hdir/expected_output.txt
    if [ -f "$expected" ] && ! cmp -s "$expected" "tests/golden/${reference%.cpp}.txt"; then
      echo "its lesson's output (expected_output.txt) is not today's" > "$work/fit/why"
    else
      GRADER_FIT=1 HANDOUT=$hroot GRADER_CACHE=$cache GRADER_KEEP=$work/fit RESULTS= SEED=$seed \
        bash tests/grader/grade.sh "$id" "$hdir/$name" > "$work/fit/log" 2>&1
      if [ $? -gt 1 ] || [ ! -s "$work/fit/rows" ]; then head -n 1 "$work/fit/log"
      elif head -n 1 "$work/fit/rows" | grep -q 'did not compile'; then echo "its starter does not build with our tests"
      elif grep -q "signature differs" "$work/fit/rows"; then echo "a tested function's signature is not today's"
      fi > "$work/fit/why"
    fi
    mv "$work/fit/why" "$fit"
  fi
  [ -n "${GRADER_FIT:-}" ] || [ ! -s "$fit" ] || elsewhere "today's grader does not fit it: $(cat "$fit")"
else
  for header in $(needed_headers "$reference") common/matrix.hpp $(needed_headers common/matrix.hpp); do
    cut_solutions "$header" "$id" > "$box/src/$(basename "$header")" || exit 2
  done
fi
# A file that lacks some of its starter's code lines (outside the solution regions; comments and spacing
# aside) was written against another handout: its report says so (GRADER_KEEP/other-handout, for the sheet).
code_lines() {  # code_lines [regions | todo]: the code lines, less the solution regions or the TODO parts' stubs
  flat_includes | awk -v cut="${1:-}" '
    cut == "regions" && /^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1 }
    inside { if (/^[ \t]*\/\/ END SOLUTION/) inside = 0; next }
    cut == "todo" && /\/\/ TODO:/ { match($0, /^[ \t]*/); todo = RLENGTH + 1; next }  # its stub: to a blank or "}"
    todo { match($0, /^[ \t]*/); if ($0 ~ /[^ \t\r]/ && RLENGTH + 1 >= todo) next; todo = 0 }
    { sub(/\/\/.*/, ""); gsub(/[ \t\r]/, ""); if ($0 != "") print }'
}
gone=0
if [ -z "${GRADER_FIT:-}" ]; then
  old=$([ -n "$hdir" ] && [ -n "$tree" ] && [ "$stamp" = "$commit" ] && cd "$tree" && exercise_file "$id")
  if [ -z "$hdir" ]; then code_lines regions < "$reference"
  elif [ -n "$old" ]; then code_lines regions < "$tree/$old"  # the starter's own lines, from its commit's reference
  else code_lines todo < "$hdir/$name"; fi > "$work/starter"
  code_lines < "$src" > "$work/mine"
  gone=$(awk 'NR == FNR { have[$0]; next } !($0 in have)' "$work/mine" "$work/starter" | wc -l | tr -d ' ')
  [ "$gone" -eq 0 ] || [ -z "${GRADER_KEEP:-}" ] || echo "$gone" > "$GRADER_KEEP/other-handout"
fi
cp tests/grader/grader.hpp "$tests_file" "$box/src/"
cp "$src" "$box/src/file/submission.cpp"
for data in $(sed -n 's|^// Files: *||p' "$tests_file"); do
  mkdir -p "$box/run/$(dirname "$data")" && cp "$data" "$box/run/$data"
done
if [ -n "$uid" ]; then
  chown -R "$uid:$uid" "$box" && chmod 700 "$box" || usage_error "cannot give the box to uid $uid"
fi

tool=$cache/gradetool
checker=$cache/checker-$id
dir=$(dirname "$reference")
[ -x "$tool" ] || { "${cxx[@]}" -std=c++17 -O1 tests/grader/gradetool.cpp -o "$tool.tmp$$" > "$work/tool.log" 2>&1 &&
  mv "$tool.tmp$$" "$tool"; } &
[ -x "$checker" ] || { "${cxx[@]}" -std=c++17 -O1 -ffp-contract=off -DGRADER_CHECKER \
  -DREFERENCE_SOURCE="\"$root/$reference\"" -Itests/grader -I"$dir" -I"$(dirname "$dir")" -Icommon "$tests_file" \
  -o "$checker.tmp$$" -pthread > "$work/checker.log" 2>&1 && mv "$checker.tmp$$" "$checker"; } &
# The build, in the sandbox: 2 minutes of CPU, 4 GB, 256 MB a file.
bash tests/grader/sandbox.sh run "$mode" "${uid:-0}" "$box" "$box/src/file" 120 4194304 262144 -- \
  "${cxx[@]}" ${flags[@]+"${flags[@]}"} -MD -MF "$box/deps" -I"$box/src" -DSTUDENT_SOURCE='"file/submission.cpp"' \
  "$box/src/$id.cpp" -o "$box/driver" -pthread > "$work/compile.log" 2>&1
compiled=$?
wait
if [ ! -x "$tool" ]; then
  echo "check-exercise: cannot build tests/grader/gradetool.cpp:" >&2
  head -n 20 "$work/tool.log" >&2
  exit 2
fi
if [ ! -x "$checker" ]; then
  echo "check-exercise: the reference $reference does not build with $tests_file (a grader bug):" >&2
  head -n 20 "$work/checker.log" >&2
  exit 2
fi
[ "$compiled" -eq 0 ] && [ ! -x "$box/driver" ] && compiled=1

# Every file the compile read must be the box's, or one of the compiler's own headers.
outside=
if [ "$compiled" -eq 0 ]; then
  system_dirs=()
  while IFS= read -r line; do system_dirs+=("$line"); done < <(
    echo | "${cxx[@]}" ${flags[@]+"${flags[@]}"} -xc++ -E -v - 2>&1 |
      sed -n '/search starts here:/,/End of search list/p' | grep '^ ' |
      sed -e 's/^ *//' -e 's/ (framework directory)$//')
  outside=$(cd "$box" && "$tool" deps "$box" "$box/deps" ${system_dirs[@]+"${system_dirs[@]}"}) ||
    outside=${outside:-"(unreadable)"}
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
  GRADER_SEED=$seed GRADER_ROWS=$rows GRADER_ANSWERS=$work/answers "$checker" \
    --grade "$time_limit" "$limit" "$error_limit" --after "bash '$work/sandbox.sh' kill $mode ${uid:-0}" -- \
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
  [ -z "$stamp" ] || echo "Against the handout of version $stamp (HANDOUT)"
  whose="today's"
  [ -z "$stamp" ] || whose="the handout's"
  [ "$gone" -eq 0 ] || echo "Written against another handout? It lacks $gone of $whose starter's code lines:" \
    "grade it with HANDOUT=<the folder or zip of the handout it came from>"
  if [ -s "$work/compile.log" ]; then
    echo
    if [ "$compiled" -ne 0 ]; then echo "It did not compile:"; else echo "The compiler's warnings:"; fi
    sed -e "s|$box/src/file/submission.cpp|$2|g" -e "s|file/submission.cpp|$2|g" -e "s|$box/src/|(handout) |g" \
      "$work/compile.log" | head -n 30 | sed 's/^/    /'
  fi
} > "$work/header"
if [ -n "${GRADER_KEEP:-}" ]; then  # for grade-class: the rows, and the answers' bits for similarity.cpp
  cp "$rows" "$GRADER_KEEP/" 2> /dev/null
  [ ! -f "$work/answers" ] || cp "$work/answers" "$GRADER_KEEP/" 2> /dev/null
fi
"$tool" report "$rows" "$work/header" ${results:+"$results"}
