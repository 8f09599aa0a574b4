#!/usr/bin/env bash
# Writes what a teacher hands out:
#
#   make handout [OUT=dir]          (default handout/, which git ignores)
#   make handout EX=15.5 [OUT=dir]  one exercise, only its own regions cut
#   bash tests/grader/handout.sh [dir [id]]
#
# One folder per exercise, OUT/<id>/: the starter (the exercise file with each
# solution region cut to a "// TODO:" line and its stub), STATEMENT.md, the
# headers it includes, any data files its tests name, the lesson's expected
# output and check.sh, which builds the starter, runs it and compares what it
# prints with that output (no repository needed, no hidden tests). In the class
# handout every exercise's regions are cut from the headers, so an exercise
# that builds on others (its "// Builds on:" line: 15.5 trains with 15.3's
# backward and 15.4's adam_step) gets one small file per earlier exercise,
# from_exercise_<id>.cpp, that builds the student's own answer in from the
# folder beside it (its main renamed), and its check.sh and statement build
# them too; EX=<id> cuts only that exercise's regions, so its folder builds,
# runs and trains on its own.
# Each starter builds on its own inside its folder:
#   c++ -std=c++17 -Wall -Wextra -Wpedantic ex3_Cross_Attention.cpp -o ex3 && ./ex3
# The folder is written beside OUT and moved into place when complete; an OUT
# that this command did not write is never replaced.
set -u -o pipefail
out=${1:-handout}
only=${2:-}
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

if [ -n "$only" ]; then
  file=$(exercise_file "$only")
  [ -n "$file" ] || fail "there is no exercise '$only'; the exercises: $(exercise_ids)"
  only=$(exercise_id_of "$file")
fi
count=0
while IFS=$'\t' read -r id file; do
  [ -z "$only" ] || [ "$id" = "$only" ] || continue
  dir=$tmp/$id
  mkdir -p "$dir"
  name=$(basename "$file")
  cut_solutions "$file" | flat_includes > "$dir/$name" || fail "cannot cut $file"
  for header in $(needed_headers "$file"); do
    cut_solutions "$header" "$only" "$id" | flat_includes > "$dir/$(basename "$header")" || fail "cannot cut $header"
  done
  # The earlier exercises' answers, the student's own, from the folders beside this one.
  earlier=
  if [ -z "$only" ]; then
    for before in $(builds_on "$file"); do
      before_file=$(exercise_file "$before")
      [ -n "$before_file" ] || fail "$file builds on '$before', which is not an exercise"
      {
        echo "// Your answer to exercise $before, from the folder beside this one: this exercise's"
        echo "// program uses it. Its main is renamed, so that this folder's is the program's."
        echo "#define main exercise_${before//./_}_main"
        echo "#include \"../$before/$(basename "$before_file")\""
      } > "$dir/from_exercise_$before.cpp"
      earlier="$earlier from_exercise_$before.cpp"
    done
  fi
  golden=tests/golden/${file%.cpp}.txt
  [ -f "$golden" ] && cp "$golden" "$dir/expected_output.txt"
  sed -e "s|NAME|${name%.cpp}|g" -e "s|EARLIER|$earlier|" > "$dir/check.sh" <<'CHECK'
#!/usr/bin/env bash
# Builds NAME.cpp with the grader's warnings, runs it and compares what it
# prints with the lesson's (expected_output.txt), spacing aside. The grader
# also calls your functions on inputs you have not seen: a match here is the
# printed-output test, not the grade.
cd "$(dirname "$0")" || exit 2
c++ -std=c++17 -Wall -Wextra -Wpedantic NAME.cppEARLIER -o NAME -pthread || { echo "check: NAME.cpp does not build"; exit 1; }
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
    echo "Build and run it in this folder, with the warnings the grader shows:"
    echo
    echo '```sh'
    echo "c++ -std=c++17 -Wall -Wextra -Wpedantic $name$earlier -o ${name%.cpp} && ./${name%.cpp}"
    echo '```'
    echo
    echo "\`bash check.sh\` does that and compares what it prints with the lesson's"
    echo "output (expected_output.txt)."
    echo
    echo "Write the parts marked TODO. The grader calls the functions named above on"
    echo "inputs you have not seen, and compares what your program prints with the"
    echo "lesson's output as words and numbers. It compiles your file alone, with"
    echo "the headers of this folder and nothing else (an include of another file is"
    echo "0 points); warnings are shown, never fatal. Each test gets 10 seconds,"
    echo "1,000,000 bytes of printing on stdout and 64,000,000 on stderr (debug prints"
    echo "there are fine), 2 GB of memory and no network; a test that crashes, hangs"
    echo "or goes past a limit scores 0, and the other tests go on."
    if [ -n "$earlier" ]; then
      echo
      echo "This exercise's program uses your answers to exercise(s) $(builds_on "$file"),"
      echo "from the folders beside this one:${earlier} build them"
      echo "in (the command above names them), so do those first. The grader grades"
      echo "this file alone, with its own answers to those."
    fi
  } > "$dir/STATEMENT.md"
  count=$((count + 1))
done < <(exercise_table)
[ "$count" -gt 0 ] || fail "no exercise files found (chapter*/exercises/*.cpp with an '// Exercise:' line)"

{
  echo "# Exercises"
  echo
  echo "One folder per exercise: its starter file, STATEMENT.md and the headers it needs."
  echo
  echo "Each folder's check.sh builds its file and compares the output with the lesson's."
  echo
  exercise_table | while IFS=$'\t' read -r id file; do
    [ -z "$only" ] || [ "$id" = "$only" ] || continue
    needs=$(builds_on "$file")
    if [ -n "$needs" ] && [ -z "$only" ]; then echo "- $id: $id/$(basename "$file") (uses your answers to $needs: do those first)"
    else echo "- $id: $id/$(basename "$file")"; fi
  done
} > "$tmp/README.md"
echo "written by make handout from $(git rev-parse --short HEAD 2> /dev/null || echo 'this tree')" > "$tmp/.handout"

rm -rf "$out"
mv "$tmp" "$out" || fail "cannot move the handout into '$out'"
trap - EXIT
echo "handout: $count exercises written to $out"
