#!/usr/bin/env bash
# The build rebuilds exactly and forgives:
# - touching chapter_tiny/tiny_model.hpp rebuilds the tiny programs and no
#   chapter 20 program; touching common/matrix.hpp rebuilds chapter 20's too
#   (the compiler's own list of the headers each program read, -MMD);
# - make golden writes the golden of a new program that has none;
# - make clean removes BUILD's folder, not build/;
# - warnings are not errors unless CI or WERROR says so.
# Run with the build folder as $1, once every program is built.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
failures=0
failed() { echo "FAILED: $1"; failures=$((failures + 1)); }
ok() { echo "ok: $1"; }
# make's own variables from make test stay out of these runs.
quiet_make() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory "$@"; }

would_build() {  # would_build [MAKE ARGS]: the programs make would build now
  quiet_make -n "$@" BUILD="$build" EXERCISES=all all 2> /dev/null |
    grep -oE ' -o [^ ]+' | sed "s| -o $build/||" | sort -u
}
already=$(would_build)  # (out of date anyway: nothing to say about a header)
rebuilt() {  # rebuilt HEADER: the programs make would build again if HEADER changed
  would_build -W "$1" | grep -vxF -e "${already:-/}"
}
tiny=$(rebuilt chapter_tiny/tiny_model.hpp)
if echo "$tiny" | grep -q '^chapter20/'; then failed "touching tiny_model.hpp rebuilds chapter 20: $(echo "$tiny" | grep '^chapter20/' | head -n 3 | tr '\n' ' ')"
elif ! echo "$tiny" | grep -q '^chapter_tiny/tiny_generate'; then failed "touching tiny_model.hpp does not rebuild tiny_generate (got: $(echo $tiny))"
else ok "touching tiny_model.hpp rebuilds $(echo "$tiny" | wc -l | tr -d ' ') programs, none of chapter 20"; fi
matrix=$(rebuilt common/matrix.hpp)
echo "$matrix" | grep -q '^chapter20/106_Projections' && ok "touching common/matrix.hpp rebuilds chapter 20's listings" ||
  failed "touching common/matrix.hpp should rebuild chapter20/106_Projections (got: $(echo $matrix | head -c 200))"

# A scratch project: the Makefile and the files it includes, the runners and
# common/, with one new program.
work=$(mktemp -d "${TMPDIR:-/tmp}/build_check.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/chapter99" "$work/tests/golden"
for makefile in Makefile $(sed -n 's/^include //p' Makefile); do
  mkdir -p "$work/$(dirname "$makefile")" && cp "$makefile" "$work/$makefile"
done
cp -R common "$work/"
cp tests/run_tests.sh tests/lessons.sh tests/wanted.sh "$work/tests/"
cat > "$work/chapter99/99_1_Hello.cpp" <<'CPP'
// 99_1_Hello.cpp: a new lesson, to see make golden write its first golden.
// Book section: 99.1
#include <cstdio>
int main() {
    int unused = 0;  // a warning (-Wunused-variable), not an error, in a learner's build
    std::printf("hello from a new lesson\n");
    return 0;
}
CPP
cd "$work" || exit 1
if quiet_make golden BUILD=b EXERCISES=none CI= WERROR= > golden.log 2>&1 &&
   [ "$(cat tests/golden/chapter99/99_1_Hello.txt 2> /dev/null)" = "hello from a new lesson" ]; then
  ok "make golden writes a new program's first golden, and its warning does not stop the build"
else failed "make golden did not write tests/golden/chapter99/99_1_Hello.txt: $(tail -n 3 golden.log | tr '\n' ' ')"; fi
if quiet_make BUILD=strict WERROR=-Werror EXE= strict/chapter99/99_1_Hello > strict.log 2>&1; then  # EXE=: one name under make cross too
  failed "WERROR=-Werror built a program with an unused variable"
elif grep -q 'unused' strict.log; then ok "WERROR=-Werror (CI, make matrix) makes the warning an error"
else failed "WERROR=-Werror failed for another reason: $(tail -n 3 strict.log | tr '\n' ' ')"; fi
mkdir -p build/keep
quiet_make clean BUILD=b > clean.log 2>&1
if [ ! -e b ] && [ -d build/keep ]; then ok "make clean BUILD=b removes b/ and leaves build/"
else failed "make clean BUILD=b: b/ $( [ -e b ] && echo 'is still there' || echo 'is gone'), build/ $( [ -d build/keep ] && echo 'kept' || echo 'removed')"; fi
cd "$root" || exit 1
[ "$failures" -eq 0 ]
