#!/usr/bin/env bash
# Writes what a teacher hands out:
#
#   make handout [OUT=dir]          (default handout/, which git ignores)
#   bash tests/grader/handout.sh [dir]
#
# One folder per exercise, OUT/<id>/: the starter (the exercise file with each
# solution region cut to a "// TODO:" line and its stub), STATEMENT.md, the
# headers it includes (their solution regions cut as well) and any data files
# its tests name. Each starter builds on its own inside its folder:
#   c++ -std=c++17 ex3_Cross_Attention.cpp -o ex3 && ./ex3
# The folder is written beside OUT and moved into place when complete; an OUT
# that this command did not write is never replaced.
set -u -o pipefail
out=${1:-handout}
[ "${out#/}" = "$out" ] && out="$PWD/$out"
cd "$(dirname "$0")/../.." || exit 2
. tests/grader/lib.sh

fail() { echo "handout: $1" >&2; exit 2; }
[ -n "$out" ] || fail "OUT is empty"
if [ -e "$out" ] && [ ! -f "$out/.handout" ]; then
  fail "'$out' exists and was not written by make handout; choose another OUT or remove it"
fi
parent=$(dirname "$out")
[ -d "$parent" ] || fail "no such folder '$parent' for OUT"
tmp=$(mktemp -d "$parent/.handout.XXXXXX") || fail "cannot write in '$parent'"
trap 'rm -rf "$tmp"' EXIT

count=0
while IFS=$'\t' read -r id file; do
  dir=$tmp/$id
  mkdir -p "$dir"
  name=$(basename "$file")
  # Everything sits in one folder, so "../tiny_model.hpp" becomes "tiny_model.hpp".
  flat() { sed 's|^\([ \t]*#[ \t]*include[ \t]*"\)\(\.\./\)*|\1|'; }
  cut_solutions "$file" | flat > "$dir/$name" || fail "cannot cut $file"
  for header in $(needed_headers "$file"); do
    cut_solutions "$header" | flat > "$dir/$(basename "$header")" || fail "cannot cut $header"
  done
  if [ -f "tests/grader/$id.cpp" ]; then
    for data in $(sed -n 's|^// Files: *||p' "tests/grader/$id.cpp"); do
      mkdir -p "$dir/$(dirname "$data")" && cp "$data" "$dir/$data"
    done
  fi
  {
    echo "# Exercise $id: $name"
    echo
    echo '```'
    # The statement is the file's opening comment.
    awk '/^\/\// { sub(/^\/\/ ?/, ""); print; next } { exit }' "$file"
    echo '```'
    echo
    echo "Build and run it in this folder:"
    echo
    echo '```sh'
    echo "c++ -std=c++17 $name -o ${name%.cpp} && ./${name%.cpp}"
    echo '```'
    echo
    echo "Write the parts marked TODO. The grader calls the functions named above on"
    echo "inputs you have not seen, and compares what your program prints with the"
    echo "lesson's output as words and numbers."
  } > "$dir/STATEMENT.md"
  count=$((count + 1))
done < <(exercise_table)
[ "$count" -gt 0 ] || fail "no exercise files found (chapter*/exercises/*.cpp with an '// Exercise:' line)"

{
  echo "# Exercises"
  echo
  echo "One folder per exercise: its starter file, STATEMENT.md and the headers it needs."
  echo
  exercise_table | while IFS=$'\t' read -r id file; do echo "- $id: $id/$(basename "$file")"; done
} > "$tmp/README.md"
echo "written by make handout from $(git rev-parse --short HEAD 2> /dev/null || echo 'this tree')" > "$tmp/.handout"

rm -rf "$out"
mv "$tmp" "$out" || fail "cannot move the handout into '$out'"
trap - EXIT
echo "handout: $count exercises written to $out"
