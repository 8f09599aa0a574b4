#!/usr/bin/env bash
# Writes what a teacher hands out (tests/grader/README.md, "The exercise file"):
#
#   make handout [OUT=dir]          every exercise (default handout/, which git ignores)
#   make handout EX=15.5 [OUT=dir]  one exercise, only its own regions cut
#   bash tests/grader/handout.sh [dir [id]]
#
# A folder per exercise: the starter, STATEMENT.md, its headers and data, the lesson's output and
# check.sh; from_exercise_<id>.cpp brings in the student's own answers to the exercises it builds on.
# VERSION names the commit (make grade-class HANDOUT= grades against it).
set -u -o pipefail
out=${1:-handout}
only=${2:-}
[ "${out#/}" = "$out" ] && out="$PWD/$out"
cd "$(dirname "$0")/../.." || exit 2
. tests/grader/lib.sh

fail() { echo "handout: $1" >&2; exit 2; }
[ -e "$out" ] && [ ! -f "$out/.handout" ] &&
  fail "'$out' exists and was not written by make handout; choose another OUT or remove it"
[ -d "$(dirname "$out")" ] || fail "no such folder '$(dirname "$out")' for OUT"
tmp=$(mktemp -d "$(dirname "$out")/.handout.XXXXXX") || fail "cannot write in '$(dirname "$out")'"
trap 'rm -rf "$tmp"' EXIT
if [ -n "$only" ]; then
  file=$(exercise_file "$only")
  [ -n "$file" ] || fail "there is no exercise '$only'; the exercises: $(exercise_ids)"
  only=$(exercise_id_of "$file")
fi

count=0
while IFS=$'\t' read -r id file; do
  [ -z "$only" ] || [ "$id" = "$only" ] || continue
  dir=$tmp/$id name=$(basename "$file") earlier=
  mkdir -p "$dir"
  cut_solutions "$file" | flat_includes > "$dir/$name" || fail "cannot cut $file"
  for header in $(needed_headers "$file"); do
    cut_solutions "$header" "$only" "$id" | flat_includes > "$dir/$(basename "$header")" || fail "cannot cut $header"
  done
  for before in $([ -n "$only" ] || builds_on "$file"); do
    [ -n "$(exercise_file "$before")" ] || fail "$file builds on '$before', which is not an exercise"
    printf '%s\n' "// Your answer to exercise $before, from the folder beside this one: this exercise's" \
      "// program uses it. Its main is renamed, so that this folder's is the program's." \
      "#define main exercise_${before//./_}_main" "#include \"../$before/$(basename "$(exercise_file "$before")")\"" \
      > "$dir/from_exercise_$before.cpp"
    earlier="$earlier from_exercise_$before.cpp"
  done
  cp "tests/golden/${file%.cpp}.txt" "$dir/expected_output.txt" 2> /dev/null
  for data in $(sed -n 's|^// Files: *||p' "tests/grader/$id.cpp" 2> /dev/null); do
    mkdir -p "$dir/$(dirname "$data")" && cp "$data" "$dir/$data"
  done
  sed -e "s|NAME|${name%.cpp}|g" -e "s|EARLIER|$earlier|" > "$dir/check.sh" << 'CHECK'
#!/usr/bin/env bash
# Builds NAME.cpp with the grader's warnings, runs it and compares what it
# prints with the lesson's (expected_output.txt), spacing aside. The grader
# also calls your functions on inputs you have not seen: a match here is the
# printed-output test, not the grade.
cd "$(dirname "$0")" || exit 2
c++ -std=c++17 -Wall -Wextra -Wpedantic NAME.cppEARLIER -o NAME -pthread ||
  { echo "check: NAME.cpp does not build"; exit 1; }
./NAME > output.txt || { echo "check: NAME stopped with status $?"; exit 1; }
if diff -b expected_output.txt output.txt > differences.txt; then
  echo "check: NAME prints the lesson's output"
  rm -f differences.txt
else
  echo "check: NAME's output differs from the lesson's (< expected, > yours):"
  head -n 20 differences.txt
  exit 1
fi
CHECK
  chmod +x "$dir/check.sh"
  { echo "# Exercise $id: $name"
    echo
    echo '```'
    awk '/^\/\// { sub(/^\/\/ ?/, ""); print; next } { exit }' "$file"  # the statement: the file's opening comment
    echo '```'
    cat << STATEMENT

Build and run it in this folder, with the warnings the grader shows (\`bash
check.sh\` does that and compares what it prints with expected_output.txt):

\`\`\`sh
c++ -std=c++17 -Wall -Wextra -Wpedantic $name$earlier -o ${name%.cpp} && ./${name%.cpp}
\`\`\`

Write the parts marked TODO. The grader calls the functions named above on
inputs you have not seen, and compares what your program prints with the
lesson's output as words and numbers. It compiles your file alone, with the
headers of this folder and nothing else (an include of another file is 0
points); warnings are shown, never fatal. Each test gets 10 seconds,
1,000,000 bytes of printing on stdout and 64,000,000 on stderr (debug prints
there are fine), 2 GB of memory and no network; a test that crashes, hangs or
goes past a limit scores 0, and the other tests go on.
STATEMENT
    [ -z "$earlier" ] || printf '\n%s\n' "This exercise's program uses your answers to exercise(s) \
$(builds_on "$file"), from the
folders beside this one:${earlier} build them in (the command above names
them), so do those first. The grader grades this file alone, with its own
answers to those."
  } > "$dir/STATEMENT.md"
  count=$((count + 1))
done < <(exercise_table)
[ "$count" -gt 0 ] || fail "no exercise files found (chapter*/exercises/*.cpp with an '// Exercise:' line)"

{ printf '# Exercises\n\nOne folder per exercise: its starter file, STATEMENT.md and the headers it needs.\n\n'
  printf "Each folder's check.sh builds its file and compares the output with the lesson's.\n\n"
  exercise_table | while IFS=$'\t' read -r id file; do
    [ -z "$only" ] || [ "$id" = "$only" ] || continue
    needs=$([ -n "$only" ] || builds_on "$file")
    echo "- $id: $id/$(basename "$file")${needs:+ (uses your answers to $needs: do those first)}"
  done
} > "$tmp/README.md"
echo "written by make handout from $(git rev-parse --short HEAD 2> /dev/null || echo 'this tree')" > "$tmp/.handout"
# VERSION: the commit it came from, for make grade-class HANDOUT= (-dirty: the sources had changes).
if ! command -v git > /dev/null; then echo "unknown: git is not installed where make handout ran" > "$tmp/VERSION"
elif ! commit=$(git rev-parse --verify -q HEAD 2> /dev/null); then
  echo "unknown: make handout ran in a folder that is not a git checkout" > "$tmp/VERSION"
else
  [ -z "$(git status --porcelain -- common 'chapter*' tests 2> /dev/null)" ] || commit=$commit-dirty
  echo "$commit" > "$tmp/VERSION"
fi
rm -rf "$out"
mv "$tmp" "$out" || fail "cannot move the handout into '$out'"
trap - EXIT
echo "handout: $count exercises written to $out"
