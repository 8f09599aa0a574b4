#!/usr/bin/env bash
# The tiny demos and the generator run from any folder: from build/chapter_tiny/
# and from a folder outside the repository, each golden run of
# tests/golden/chapter_tiny/ prints its golden, so they found the shipped
# checkpoint (chapter_tiny/tiny_model_path.hpp); there an explicit
# --model FILE still wins over it; and so does a program built with the
# README's one-file command.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
outside=$(mktemp -d)
trap 'rm -rf "$outside"' EXIT
status=0
bad() { echo "FAILED: $*"; status=1; }

# Every golden of a tiny demo (tiny_1, tiny_2, tiny_3) and of the generator, each from both folders.
for golden in "$root"/tests/golden/chapter_tiny/tiny_*.txt; do
  name=$(basename "$golden" .txt) program=${name%@*} args=()
  [ -f "${golden%.txt}.args" ] && eval "args=($(cat "${golden%.txt}.args"))"
  for folder in "$build/chapter_tiny" "$outside"; do
    (cd "$folder" && NO_COLOR=1 $RUN "$build/chapter_tiny/$program" "${args[@]}" > "$outside/out.txt" 2> "$outside/err.txt" < /dev/null) ||
      { bad "$name from $folder exited with status $?: $(head -c 300 "$outside/err.txt")"; continue; }
    diff -q --strip-trailing-cr "$golden" "$outside/out.txt" > /dev/null || bad "$name from $folder differs from its golden"
  done
done

# --model FILE wins: a copy of the checkpoint gives the golden, a missing file the error naming it.
cp "$root/chapter_tiny/shakespeare.tiny" "$outside/copy.tiny"
score=$root/tests/golden/chapter_tiny/tiny_generate@score
eval "args=($(cat "$score.args"))"
(cd "$outside" && $RUN "$build/chapter_tiny/tiny_generate" --model copy.tiny "${args[@]}" > out.txt 2> err.txt) &&
  diff -q --strip-trailing-cr "$score.txt" "$outside/out.txt" > /dev/null || bad "tiny_generate --model copy.tiny differs from its golden"
(cd "$outside" && $RUN "$build/chapter_tiny/tiny_2_No_Peeking" --model missing.tiny > out.txt 2> err.txt)
[ $? -eq 2 ] && grep -q "cannot read 'missing.tiny'" "$outside/err.txt" ||
  bad "tiny_2_No_Peeking --model missing.tiny should fail naming it, said: $(head -c 300 "$outside/err.txt")"

# The README's one-file command, given from a top folder (here of links), with no
# SOURCE_ROOT: the program finds the checkpoint from another folder, and a copy
# that cannot says to run it from the top folder or to pass --model FILE.
if [ -z "$RUN" ]; then
  top=$outside/top
  mkdir -p "$top" && ln -s "$root/common" "$root/chapter_tiny" "$top/"
  if (cd "$top" && ${CXX:-c++} -std=c++17 -Icommon chapter_tiny/tiny_2_No_Peeking.cpp -o t2 2> "$outside/err.txt"); then
    (cd "$outside" && NO_COLOR=1 "$top/t2" > out.txt 2> err.txt < /dev/null) &&
      [ "$(head -n 1 "$outside/out.txt")" = "$(head -n 1 "$root/tests/golden/chapter_tiny/tiny_2_No_Peeking.txt")" ] ||
      bad "tiny_2 built with the one-file command, run from $outside: $(head -c 300 "$outside/err.txt")"
    cp "$top/t2" "$outside/t2"
    (cd "$outside" && ./t2 > out.txt 2> err.txt < /dev/null)
    [ $? -eq 2 ] && grep -q "top folder" "$outside/err.txt" && grep -q -- "--model FILE" "$outside/err.txt" ||
      bad "a one-file tiny_2 that cannot find the checkpoint should say to run from the top folder or pass --model FILE, said: $(head -c 300 "$outside/err.txt")"
  else
    bad "the one-file command did not build tiny_2: $(head -c 300 "$outside/err.txt")"
  fi
fi

[ "$status" -eq 0 ] && echo "the tiny demos and tiny_generate print their goldens from build/chapter_tiny and from $outside"
exit $status
